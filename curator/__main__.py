from curator.cli import run

run()
