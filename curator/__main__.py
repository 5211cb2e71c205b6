"""`curator` and `python -m curator`.

The command starts here rather than in `curator.cli`, so that Ctrl-C while the modules
load (a third of a second, before `curator.cli` can catch anything) ends the run as it
does later: one line and exit status 2, not a traceback. SIGTERM and SIGHUP are made to
stop it the same way (`curator.signals`) before anything else, that window included.
"""

import contextlib
import os
import sys
from typing import NoReturn

from curator.signals import deferred, said, stop_behind, terminate_cleanly


def main() -> NoReturn:
    terminate_cleanly()
    try:
        # Deferred while they load: a stop that landed as pydantic built a model's
        # validator was printed ("Exception ignored in: '^[…]*$' … KeyboardInterrupt") and
        # dropped, and the run went on to the end.
        with deferred():
            from curator.cli import run
        run()
    except (KeyboardInterrupt, RuntimeError) as error:  # (while loading, or as `run` flushes)
        stop = stop_behind(error)
        if stop is None:
            raise
        # (`curator new` says it in Korean first, as it says everything: known by its name
        # here, before its module may have loaded.)
        print(said(stop, korean_first=sys.argv[1:2] == ["new"]), file=sys.stderr)
        # Out at once, as `run` ends: Python ending the usual way takes 0.1 s, and Ctrl-C
        # again meanwhile printed "Exception ignored in atexit callback", or, once Python
        # had given the signal back to the system, ended the run with exit status 130.
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # a closed pipe: nothing more to tell it
                stream.flush()
        os._exit(2)  # (curator.cli.EXIT_ERROR, which may not be loaded yet)


if __name__ == "__main__":
    main()
