"""``python -m genplan`` runs the command line."""

import sys

from genplan.cli import main

sys.exit(main())
