import sys

from rankflavor.cli.main import main

sys.exit(main())
