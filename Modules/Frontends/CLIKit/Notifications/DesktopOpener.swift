import Foundation
import Kernel

/// Hands a saved file to the desktop's opener (`xdg-open` under X11 or Wayland, `open` on macOS),
/// where there is one: `messageai open` and the REPL's `/open`. Files to open are saved in a
/// folder of this user's cache first, one per message, so names of different messages never clash.
public enum DesktopOpener {
    /// The opener of this session, or `nil` where there is none (no desktop: a server over ssh).
    public static func program(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        #if os(macOS)
            return URL(fileURLWithPath: "/usr/bin/open")
        #else
            guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil else { return nil }
            let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            return folders.map { URL(fileURLWithPath: String($0)).appendingPathComponent("xdg-open") }
                .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        #endif
    }

    /// The folder the files of a message to open are saved in: `CACHE/files/CONVERSATION/MESSAGE`,
    /// where `cache` is this user's cache folder for MessageAI (`$XDG_CACHE_HOME/messageai`),
    /// made with mode 0700.
    /// - Throws: `.unavailable` when it cannot be made.
    public static func folder(for messageID: MessageID, in conversationID: ConversationID, cache: URL) throws -> String {
        let folder = cache.appendingPathComponent("files").appendingPathComponent(conversationID.rawValue)
            .appendingPathComponent(messageID.rawValue).path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw AppError(.unavailable, "the folder \(folder) cannot be made: \(error.localizedDescription)")
        }
        return folder
    }

    /// Starts the opener of `environment`'s session on `path` and returns at once; false when
    /// there is no opener or it would not start.
    @discardableResult
    public static func open(_ path: String, environment: [String: String]) -> Bool {
        guard let program = program(environment: environment) else { return false }
        let process = Process()
        process.executableURL = program
        process.arguments = [path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        return (try? process.run()) != nil
    }
}
