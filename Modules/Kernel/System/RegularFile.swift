import Foundation

/// Reads a file that a path names only when it is a regular file, and only up to a size: a
/// FIFO, a device or a folder given as a config, session or history path is refused at once
/// instead of hanging or reading without end.
public enum RegularFile {
    /// The file's bytes; `nil` when nothing is at `path`.
    /// - Parameters:
    ///   - what: how error messages name the file ("config file").
    ///   - maxBytes: the largest file accepted.
    /// - Throws: `AppError` of `kind` when the path is not a regular file, is larger than
    ///   `maxBytes`, or cannot be read.
    public static func read(_ path: String, what: String, maxBytes: Int, kind: AppError.Kind) throws -> [UInt8]? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw AppError(kind, "\(what) \(path) cannot be read: \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw AppError(kind, "\(what) \(path) is not a regular file") }
        guard Int(info.st_size) <= maxBytes else {
            throw AppError(kind, "\(what) \(path) is \(info.st_size) bytes; the most accepted is \(maxBytes)")
        }
        // O_NONBLOCK: if the path was swapped for a FIFO since the check, opening does not wait.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw AppError(kind, "\(what) \(path) cannot be read: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard let bytes = readUpTo(maxBytes + 1, from: descriptor) else {
            throw AppError(kind, "\(what) \(path) cannot be read: \(String(cString: strerror(errno)))")
        }
        guard bytes.count <= maxBytes else { throw AppError(kind, "\(what) \(path) is larger than \(maxBytes) bytes") }
        return bytes
    }

    /// Up to `limit` bytes from `descriptor` (fewer at its end), or `nil` on a read error
    /// (`errno` says which): never more, however much is there.
    public static func readUpTo(_ limit: Int, from descriptor: Int32) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: limit)
        var filled = 0
        while filled < limit {
            let count = bytes.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { Foundation.read(descriptor, $0 + filled, limit - filled) } ?? 0
            }
            if count < 0, errno == EINTR { continue }
            if count < 0 { return nil }
            if count == 0 { break }
            filled += count
        }
        return Array(bytes[..<filled])
    }
}
