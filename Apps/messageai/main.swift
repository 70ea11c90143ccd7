import MessageAIApp
import ServiceGraph

MemoryTuning.keepFreedMemory()
await Launcher.main()
