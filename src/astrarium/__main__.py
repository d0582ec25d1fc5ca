from astrarium.cli import main

main()
