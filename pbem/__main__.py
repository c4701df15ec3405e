from pbem.cli import main

main()
