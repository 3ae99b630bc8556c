from rankflavor.cli.main import entry

entry()
