import MessageAIApp

await Launcher.main()
