"""`curator` and `python -m curator`.

The command starts here rather than in `curator.cli`, so that Ctrl-C while the modules
load (a third of a second, before `curator.cli` can catch anything) ends the run as it
does later: one line and exit status 2, not a traceback.
"""

import sys
from typing import NoReturn


def main() -> NoReturn:
    try:
        from curator.cli import run
    except KeyboardInterrupt:
        print("curator: interrupted", file=sys.stderr)
        sys.exit(2)  # (curator.cli.EXIT_ERROR, which is not loaded yet)
    run()


if __name__ == "__main__":
    main()
