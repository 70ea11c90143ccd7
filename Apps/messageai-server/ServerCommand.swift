import ArgumentParser
import Foundation
import Kernel
import MessageAIServer
import ServiceGraph
import SettingsKit

/// `messageai-server`: the options, their environment variables and config keys, and the one-line
/// errors and exit codes of a failed start. Each option's meaning, default and range are its
/// key's (`ServerSettings.Key`).
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "messageai-server",
        abstract: "Serve MessageAI to clients on other machines (messageai --backend remote --server URL).",
        discussion: """
            Stores everything in one SQLite file, or with --postgres-url in a PostgreSQL database that \
            several instances share (`messageai-server migrate` moves a SQLite store there). Every option can also come from the environment \
            or from a config file (--config); the command line wins, then the environment, then the file.
            The first log line states the URL it listens on. SIGTERM or SIGINT stops it gracefully.

            \(ServerSettings.table.help)
            """,
        subcommands: [MigrateCommand.self, AdminCommand.self])

    private typealias Key = ServerSettings.Key

    @Option(help: ArgumentHelp(Key.host.help)) var host: String?
    @Option(help: ArgumentHelp(Key.port.help)) var port: String?
    @Option(help: ArgumentHelp(Key.sqlitePath.help, valueName: "file")) var sqlitePath: String?
    @Option(help: ArgumentHelp(Key.postgresURL.help, valueName: "url")) var postgresURL: String?
    @Option(help: ArgumentHelp(Key.postgresConnections.help)) var postgresConnections: String?
    @Option(help: ArgumentHelp(Key.tlsCertificate.help, valueName: "file")) var tlsCert: String?
    @Option(help: ArgumentHelp(Key.tlsKey.help, valueName: "file")) var tlsKey: String?
    @Option(help: ArgumentHelp(Key.bcryptCost.help)) var bcryptCost: String?
    @Option(help: ArgumentHelp(Key.logLevel.help)) var logLevel: String?
    @Option(help: ArgumentHelp(Key.signUpBurst.help)) var signUpBurst: String?
    @Option(help: ArgumentHelp(Key.pingSeconds.help)) var pingSeconds: String?
    @Option(help: ArgumentHelp(Key.socketQueueFrames.help)) var socketQueueFrames: String?
    @Option(help: ArgumentHelp(Key.idleSeconds.help)) var idleSeconds: String?
    @Option(help: ArgumentHelp(Key.connectionsPerAddress.help)) var connectionsPerAddress: String?
    @Option(name: .customLong("trusted-proxy"), help: ArgumentHelp(Key.trustedProxies.help, valueName: "addresses")) var trustedProxies: String?
    @Option(help: ArgumentHelp(Key.messagesPerMinute.help)) var messagesPerMinute: String?
    @Option(help: ArgumentHelp(Key.fanOutMegabytesPerMinute.help)) var fanOutMegabytesPerMinute: String?
    @Option(help: ArgumentHelp(Key.conversationsPerHour.help)) var conversationsPerHour: String?
    @Option(help: ArgumentHelp(Key.renamesPerHour.help)) var renamesPerHour: String?
    @Option(help: ArgumentHelp(Key.lookupsPerMinute.help)) var lookupsPerMinute: String?
    @Option(help: ArgumentHelp(Key.requestsAtOnce.help)) var requestsAtOnce: String?
    @Option(help: ArgumentHelp(Key.uploadMegabytesPerHour.help)) var uploadMegabytesPerHour: String?
    @Option(help: ArgumentHelp(Key.filesMaxBytes.help)) var filesMaxBytes: String?
    @Option(help: ArgumentHelp(Key.filesQuotaMegabytes.help)) var filesQuotaMegabytes: String?
    @Option(help: ArgumentHelp(Key.registrationMode.help)) var registrationMode: String?
    @Option(help: ArgumentHelp(Key.retentionDays.help)) var retentionDays: String?
    @Option(help: ArgumentHelp(Key.invitesBy.help)) var invitesBy: String?
    @Option(help: ArgumentHelp("A config file of settings: YAML, or JSON when its name ends in .json.", valueName: "file"))
    var config: String?

    /// The keys the options set.
    private var commandLine: [String: String] {
        let given: [(SettingKey, String?)] = [
            (Key.host, host), (Key.port, port), (Key.sqlitePath, sqlitePath), (Key.postgresURL, postgresURL),
            (Key.postgresConnections, postgresConnections),
            (Key.tlsCertificate, tlsCert), (Key.tlsKey, tlsKey), (Key.bcryptCost, bcryptCost),
            (Key.logLevel, logLevel), (Key.signUpBurst, signUpBurst), (Key.pingSeconds, pingSeconds), (Key.socketQueueFrames, socketQueueFrames),
            (Key.idleSeconds, idleSeconds), (Key.connectionsPerAddress, connectionsPerAddress), (Key.trustedProxies, trustedProxies),
            (Key.messagesPerMinute, messagesPerMinute), (Key.fanOutMegabytesPerMinute, fanOutMegabytesPerMinute),
            (Key.conversationsPerHour, conversationsPerHour), (Key.renamesPerHour, renamesPerHour),
            (Key.lookupsPerMinute, lookupsPerMinute), (Key.requestsAtOnce, requestsAtOnce),
            (Key.uploadMegabytesPerHour, uploadMegabytesPerHour), (Key.filesMaxBytes, filesMaxBytes),
            (Key.filesQuotaMegabytes, filesQuotaMegabytes), (Key.registrationMode, registrationMode),
            (Key.retentionDays, retentionDays), (Key.invitesBy, invitesBy),
        ]
        return given.reduce(into: [:]) { result, pair in result[pair.0.name] = pair.1 }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        for unknown in ServerSettings.table.unknownVariables(in: environment) {
            FileHandle.standardError.write(Data("messageai-server: warning: \(unknown.warning)\n".utf8))
        }
        do {
            let settings = try ServerSettings.load(commandLine: commandLine, configFile: config, environment: environment)
            MemoryTuning.keepFreedMemory()
            try await MessageAIServer.run(settings)
        } catch let error as AppError {
            FileHandle.standardError.write(Data("messageai-server: error: \(error.message)\n".utf8))
            throw ExitCode(error.kind.exitCode)
        }
    }
}
