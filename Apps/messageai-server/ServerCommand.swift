import ArgumentParser
import Foundation
import Kernel
import MessageAIServer
import ServiceGraph

/// `messageai-server`: the options, their environment variables and config keys, and the one-line
/// errors and exit codes of a failed start.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "messageai-server",
        abstract: "Serve MessageAI to clients on other machines (messageai --backend remote --server URL).",
        discussion: """
        Stores everything in one SQLite file. Every option can also come from the environment \
        or from a JSON config file (--config); the command line wins, then the environment, then the file. \
        A MESSAGEAI_SERVER_ variable that names no setting is warned about and ignored.
        Keys (environment variable): \(ServerSettings.keys.map { "\($0.name) (\(ServerSettings.environmentVariable(of: $0.name))) — \($0.summary)" }
            .joined(separator: "; ")).
        The first log line states the URL it listens on. SIGTERM or SIGINT stops it gracefully.
        """)

    @Option(help: "Address to listen on (default 127.0.0.1; 0.0.0.0 for every interface).")
    var host: String?
    @Option(help: "Port to listen on; 0 picks a free one (default 8080).")
    var port: String?
    @Option(help: ArgumentHelp("The SQLite file (default $XDG_DATA_HOME/messageai/server.sqlite).", valueName: "file"))
    var sqlitePath: String?
    @Option(help: ArgumentHelp("PEM certificate chain: serve HTTPS and WSS (with --tls-key).", valueName: "file"))
    var tlsCert: String?
    @Option(help: ArgumentHelp("PEM private key of --tls-cert.", valueName: "file"))
    var tlsKey: String?
    @Option(help: "bcrypt cost of new password hashes, 4–14 (default 12).")
    var bcryptCost: String?
    @Option(help: "trace, debug, info, notice, warning, error or critical (default info).")
    var logLevel: String?
    @Option(help: "Sign-ups one client address may make at once, then one every 3 s (default 20).")
    var signUpBurst: String?
    @Option(help: "Seconds an events socket may be silent before it is pinged; twice that unanswered closes it (default 30).")
    var pingSeconds: String?
    @Option(help: "Messages one person may send a minute, a tenth of them at once (default 300).")
    var messagesPerMinute: String?
    @Option(help: "MiB of text times recipients one person may send a minute (default 16).")
    var fanOutMegabytesPerMinute: String?
    @Option(help: "Conversations one person may start an hour, a sixth of them at once (default 120).")
    var conversationsPerHour: String?
    @Option(help: "Display-name changes one person may make an hour, a twelfth of them at once (default 60).")
    var renamesPerHour: String?
    @Option(help: "People look-ups and searches one person may make a minute, half of them at once (default 120).")
    var lookupsPerMinute: String?
    @Option(help: ArgumentHelp("A JSON file of settings.", valueName: "file"))
    var config: String?

    func run() async throws {
        let given: [(String, String?)] = [("host", host), ("port", port), ("sqlite.path", sqlitePath), ("tls.cert", tlsCert),
                                          ("tls.key", tlsKey), ("auth.bcryptCost", bcryptCost), ("log.level", logLevel),
                                          ("auth.signUpBurst", signUpBurst), ("events.pingSeconds", pingSeconds),
                                          ("budget.messagesPerMinute", messagesPerMinute), ("budget.fanOutMegabytesPerMinute", fanOutMegabytesPerMinute),
                                          ("budget.conversationsPerHour", conversationsPerHour), ("budget.renamesPerHour", renamesPerHour),
                                          ("budget.lookupsPerMinute", lookupsPerMinute)]
        let environment = ProcessInfo.processInfo.environment
        for unknown in ServerSettings.unknownVariables(in: environment) {
            FileHandle.standardError.write(Data("messageai-server: warning: \(unknown.warning)\n".utf8))
        }
        do {
            let settings = try ServerSettings.load(commandLine: given.reduce(into: [:]) { $0[$1.0] = $1.1 }, configFile: config,
                                                   environment: environment)
            MemoryTuning.keepFreedMemory()
            try await MessageAIServer(settings: settings).run()
        } catch let error as AppError {
            FileHandle.standardError.write(Data("messageai-server: error: \(error.message)\n".utf8))
            throw ExitCode(error.kind.exitCode)
        }
    }
}
