"""Serving a class: several replicas of the app behind nginx, with sticky sessions.

One ``streamlit run`` process serves every session from one Python process, so a class shares
one core's worth of reruns.  Here N replicas run side by side, each on its own loopback port,
and nginx spreads the browsers over them::

    browsers ──► nginx :8500 ──hash(cookie lab_replica)──► replica :8501 ─┐
                                                      └──► replica :8502 ─┤
                        PostgreSQL (progress) ◄── PARSING_DATABASE_URL ───┤
                        training runs          ◄── PARSING_JOBS_DIR ───────┘

* :mod:`deploy.replicas` — the replicas and the environment they share;
* :mod:`deploy.proxy` — nginx, rendered from ``nginx.conf.template`` and run unprivileged;
* :mod:`deploy.launch` — both together: ``python -m deploy.launch --replicas 2 --port 8500``.

**Sticky sessions.**  A Streamlit session lives in its replica's memory and talks over a websocket
(``/_stcore/stream``); its uploads, downloads and media are separate HTTP requests that must reach
the same replica.  nginx gives each new browser a random key in a cookie (``lab_replica``) and
hashes that key to a replica (``hash … consistent``), so every request of that browser goes to the
same one.  Hashing the client's address (``ip_hash``) would send every browser of one address
(a classroom behind one NAT, or one test machine) to a single replica.

**Losing a replica.**  Everything a learner needs again is in the URL (the stepper's sentence,
system and moves; the Train page's tab token) or in the shared stores (progress in the database,
runs in the jobs folder).  When a replica dies, nginx sends its browsers' reconnections to the
next replica on the hash ring, and the page rebuilds itself from its URL.
"""
