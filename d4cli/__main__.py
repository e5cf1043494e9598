from d4cli.main import main

main()
