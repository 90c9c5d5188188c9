from citecheck.cli import main

raise SystemExit(main())
