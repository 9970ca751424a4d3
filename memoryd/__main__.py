"""`python -m memoryd` runs the command line."""

from memoryd.cli import main

if __name__ == "__main__":
    main()
