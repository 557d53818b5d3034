"""What the Welcome page says (no Streamlit here): where a newcomer starts, what the other pages
are for, and the ideas of the lab in one paragraph whose terms link to the Glossary.

A place to go is a :class:`Door`: a page file, its label, one sentence on why to go there, and
the query that opens the right spot (Lesson 1, not the list of lessons).

>>> [door.label for door in START]
['Start Lesson 1', 'Open the Stepper', 'Start practising']
>>> START[0].address
'/lessons?lesson=01-transition-parsing&step=1'
>>> '<a href="/glossary#configuration" target="glossary" rel="opener">configuration</a>' in intro()
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import parsing_core as pc
from ui.views.glossary import term_html


@dataclass(frozen=True)
class Door:
    """One way into the lab: the card's heading, the page and its label, why to go, where exactly."""

    heading: str
    page: str  # the page file, as app.py names it
    label: str
    icon: str
    why: str
    query: dict[str, str] = field(default_factory=dict)

    @property
    def address(self) -> str:
        """The page's address in the app, with its query: ``/lessons?lesson=…&step=1``."""
        path = "/" + Path(self.page).stem
        return f"{path}?{urlencode(self.query)}" if self.query else path


FIRST_LESSON = "01-transition-parsing"

#: The three cards, in the order a newcomer should take them.
START = (
    Door("Learn", "pages/lessons.py", "Start Lesson 1", ":material/cast_for_education:",
         "New here? The first lesson parses “book me the morning flight” with you, move by move, "
         "and asks you to make the moves.", {"lesson": FIRST_LESSON, "step": "1"}),
    Door("Explore", "pages/stepper.py", "Open the Stepper", ":material/footprint:",
         "Parse any sentence yourself, one move at a time, and see at once what each move costs."),
    Door("Practise", "pages/practice.py", "Start practising", ":material/exercise:",
         "Short graded questions with hints; the lab remembers what you have mastered and what to "
         "review."),
)

#: For teachers and the curious, after the three cards.
MORE = (
    Door("", "pages/train.py", "Train", ":material/model_training:",
         "train a neural parser with a static or a dynamic oracle and watch it learn; then load it "
         "in the Stepper."),
    Door("", "pages/lab.py", "Oracle lab", ":material/science:",
         "measure how often an approximate oracle agrees with an exact one, and how fast each is."),
    Door("", "pages/rl.py", "RL oracle", ":material/psychology:",
         "let a neural network learn the costs by reinforcement learning, then try it in the Stepper."),
    Door("", "pages/glossary.py", "Glossary", ":material/menu_book:",
         "every term of the lab in plain words."),
)


def intro() -> str:
    """The lab's ideas in one paragraph (HTML inside Markdown): each bold term links to its
    Glossary entry, in the one Glossary tab every term link shares."""
    t = term_html
    return (
        f"A **{t('transition-based parser', 'transition')}** reads a sentence left to right and builds "
        f"its dependency tree one small decision at a time: each word gets a **{t('head')}**, another "
        f"word of which it is a **{t('dependent')}**.  Its whole state is a **{t('configuration')}** "
        f"c = (σ, β, A): a **{t('stack')}** σ of partly processed tokens, a **{t('buffer')}** β of "
        f"tokens not yet read, and the **{t('arcs', 'arc')}** A built so far.  A "
        f"**{t('transition')}** such as SHIFT, LEFT-ARC or RIGHT-ARC turns one configuration into the "
        f"next; a **{t('transition system')}** says which transitions exist and when each is legal.  "
        f"An **{t('oracle')}** knows the **{t('gold tree')}** and says which moves are right: a "
        f"**{t('static oracle')}** gives one gold sequence, a **{t('dynamic oracle')}** gives the "
        f"**{t('cost')}** of every move, even after a mistake.  Token 0 is **{t('ROOT')}**, an "
        "imaginary word that heads the whole sentence.  Click a bold term to read its Glossary entry.")


def data_dir_note() -> str:
    """Where treebanks come from, and the other ways to get some (for whoever runs the server)."""
    folder = pc.data_dir()
    elsewhere = ("The Stepper (*Treebank*) and the Train page also read any folder you type, and the "
                 "Train page downloads a Universal Dependencies treebank by name.")
    if folder is None:
        return (f"No data directory yet (set `PARSING_DATA_DIR`); the teaching sentences work without "
                f"one.  {elsewhere}")
    return f"Data directory: `{folder}`.  {elsewhere}"
