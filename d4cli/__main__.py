from d4cli.cli.main import main

main()
