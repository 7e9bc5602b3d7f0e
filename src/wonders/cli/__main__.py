from wonders.cli import main

main()
