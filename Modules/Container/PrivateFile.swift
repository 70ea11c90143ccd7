import Foundation
import Kernel

/// Files only their owner may read (mode 0600, in a 0700 folder), replaced whole: a crash
/// leaves the old file or the new one, never half of either. Sessions and the outbox.
enum PrivateFile {
    /// Replaces `file` with `data`.
    /// - Throws: `AppError(.unavailable)` naming `what` when it cannot be written.
    static func write(_ data: Data, to file: URL, what: String) throws {
        do {
            let folder = file.deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw AppError(.unavailable, "cannot write \(what) in \(folder.path)")
            }
            defer { try? FileManager.default.removeItem(at: temporary) }
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
            guard rename(temporary.path, file.path) == 0 else {
                throw AppError(.unavailable, "cannot save \(what) in \(file.path): \(String(cString: strerror(errno)))")
            }
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(.unavailable, "cannot save \(what) in \(file.path): \(error.localizedDescription)")
        }
    }

    /// Removes `file` if it exists.
    static func remove(_ file: URL) throws {
        if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
    }
}
