"""Serving a class: several replicas of the app behind nginx, with sticky sessions.

One ``streamlit run`` process serves every session from one Python process, so a class shares
one core's worth of reruns.  Here N replicas run side by side, each on its own loopback port,
and nginx spreads the browsers over them::

    browsers ──► nginx :8500 ──cookie lab_replica=8501──► replica :8501 ─┐
                                                     └──► replica :8502 ─┤
                        PostgreSQL (progress) ◄── PARSING_DATABASE_URL ───┤
                        training runs          ◄── PARSING_JOBS_DIR ───────┘

* :mod:`deploy.replicas` — the replicas and the environment they share;
* :mod:`deploy.proxy` — nginx, rendered from ``nginx.conf.template`` and run unprivileged;
* :mod:`deploy.ray_head` — a Ray head for the training runs, on loopback only, with a token;
* :mod:`deploy.credentials` — the database password: never in argv, never printed;
* :mod:`deploy.sockets` — which ports a process tree listens on, and on which address;
* :mod:`deploy.signals` — SIGTERM ends a command as Ctrl-C does, through its clean-up;
* :mod:`deploy.launch` — all together: ``python -m deploy.launch --replicas 2 --port 8500``.

**Sticky sessions.**  A Streamlit session lives in its replica's memory and talks over a websocket
(``/_stcore/stream``); its uploads, downloads and media are separate HTTP requests that must reach
the same replica.  nginx's cookie ``lab_replica`` names the replica that last answered the
browser (its port) and sends every request carrying it there; a browser without it is sent
round-robin.  Hashing the client's address (``ip_hash``) would send every browser of one address
(a classroom behind one NAT, or one test machine) to a single replica.

**Losing a replica.**  Everything a learner needs again is in the URL (the stepper's sentence,
system and moves; the Train page's tab token) or in the shared stores (progress in the database,
runs in the jobs folder).  When a replica dies, nginx sends its browsers' reconnections to
another replica, whose answer re-pins their cookie, and the page rebuilds itself from its URL;
the browser stays there once the dead replica is back, since that is where its session lives.
"""
