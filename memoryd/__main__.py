"""`python -m memoryd` runs the command line."""

from memoryd.commands.main import main

if __name__ == "__main__":
    main()
