import AppContainer
import ArgumentParser
import Auth
import Chat
import Foundation
import Kernel

/// Modes the process benchmarks start as separate processes. Not for people.
struct ChildProcess: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "child", abstract: "(internal) a benchmark's child process.",
        shouldDisplay: false, subcommands: [Listen.self, Send.self])

    struct Identity: ParsableArguments {
        @Option var path: String
        @Option var user: String
        @Option var token: String
        @Option var conversation: String

        /// The command-line options that give a child this identity.
        static func arguments(path: String, as session: Session, in conversation: ConversationID) -> [String] {
            ["--path", path, "--user", session.userID.rawValue, "--token", session.token, "--conversation", conversation.rawValue]
        }

        @MainActor func container() async throws -> AppContainer {
            try await World.container(path: path, sessions: InMemorySessionStore(Session(userID: UserID(user), email: "", token: token)))
        }
    }

    /// Prints "ready", then for each live message the milliseconds since it was sent.
    struct Listen: AsyncParsableCommand {
        @OptionGroup var identity: Identity

        @MainActor func run() async throws {
            let container = try await identity.container()
            let live = try await container.events.liveMessages(in: ConversationID(identity.conversation))
            Output.line("ready")
            for await message in live { Output.line(Stats.format(Date().timeIntervalSince(message.sentAt) * 1_000, 3)) }
        }
    }

    /// Sends `count` messages, printing each acknowledged id (with `--acks`), then "sent <errors>";
    /// then waits for a line and prints a digest of the conversation's whole order.
    struct Send: AsyncParsableCommand {
        @OptionGroup var identity: Identity
        @Option var count: Int
        @Flag var acks = false

        @MainActor func run() async throws {
            let container = try await identity.container()
            let conversation = ConversationID(identity.conversation)
            var errors = 0
            for index in 0..<count {
                do {
                    let message = try await container.chat.send(
                        id: .random(), text: "\(index) from \(ProcessInfo.processInfo.processIdentifier)", to: conversation)
                    if acks { Output.line(message.id.rawValue) }
                } catch {
                    errors += 1
                    FileHandle.standardError.write(Data("send failed: \(error)\n".utf8))
                }
            }
            Output.line("sent \(errors)")
            _ = readLine()
            let ids = try await World.messageIDs(in: conversation, of: container)
            Output.line("order \(ids.count) \(Output.digest(ids.joined(separator: ","))) \(Set(ids).count)")
        }
    }
}

/// Unbuffered standard output, so the parent sees each line at once.
enum Output {
    static func line(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }

    /// FNV-1a of the text: the same in every process (unlike `hashValue`).
    static func digest(_ text: String) -> String {
        String(text.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }, radix: 16)
    }
}
