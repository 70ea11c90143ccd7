import Foundation
import Glibc
import TestSupport

/// A bare TCP client of the server: one that opens an events socket and then says nothing, not
/// even a pong, only reading what the server sends, frame by frame, until the server closes; or
/// one that writes a raw request (from another loopback address if asked) and reads the answer.
struct SilentSocket {
    /// One frame from the server (unmasked, as a server sends them).
    struct Frame {
        let opcode: UInt8
        let payload: [UInt8]
    }

    private let descriptor: Int32

    /// Connects to `127.0.0.1:port` and asks for the events socket of `token`; with
    /// `receiveBuffer`, the kernel holds at most about that many bytes it has not read.
    init(port: Int, token: String, receiveBuffer: Int32? = nil) throws {
        try self.init(port: port, receiveBuffer: receiveBuffer)
        ask(token: token)
    }

    /// Connects to `127.0.0.1:port` from `source` (another loopback address, as another client
    /// would; any when `nil`), asking nothing yet.
    init(port: Int, from source: String? = nil, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        func address(_ host: String, _ port: Int) -> sockaddr_in {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr(host)
            return address
        }
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        if let source {
            var local = address(source, 0)
            guard withUnsafePointer(to: &local, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, size) } }) == 0 else {
                close(descriptor)
                throw POSIXError(.EADDRNOTAVAIL)
            }
        }
        var remote = address("127.0.0.1", port)
        guard withUnsafePointer(to: &remote, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, size) } }) == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    /// Writes `request` to `127.0.0.1:port` from `source` and returns everything the server
    /// answers until it closes the connection (30 s at most), read on a thread of its own.
    static func answer(to request: Data, port: Int, from source: String) async throws -> Data {
        let socket = try SilentSocket(port: port, from: source)
        return await OwnThread.run {
            var offset = 0
            while offset < request.count {
                let written = request[offset...].withUnsafeBytes { write(socket.descriptor, $0.baseAddress, $0.count) }
                guard written > 0 else { break }
                offset += written
            }
            return Data(socket.readUntilClosed(limit: 30).bytes)
        }
    }

    /// Asks for the events socket of `token`, with `headers` besides.
    func ask(token: String, headers: [String: String] = [:]) {
        let request =
            "GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nAuthorization: Bearer \(token)\r\n"
            + headers.map { "\($0.key): \($0.value)\r\n" }.joined() + "\r\n"
        _ = request.withCString { write(descriptor, $0, strlen($0)) }
    }

    /// Closes the connection.
    func hangUp() { Glibc.close(descriptor) }

    /// Whether the server has answered or closed the connection, asked without waiting.
    func hasAnswered() -> Bool {
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&ready, 1, 0) > 0
    }

    /// Writes `text` as it is.
    func writeText(_ text: String) {
        _ = text.withCString { Glibc.write(descriptor, $0, strlen($0)) }
    }

    /// Writes one client frame of `opcode` with `payload` (under 126 bytes), masked as a
    /// client's must be (with a key of zeros, which leaves the payload as it is).
    func send(opcode: UInt8, payload: [UInt8] = []) {
        let frame = [0x80 | opcode, 0x80 | UInt8(payload.count), 0, 0, 0, 0] + payload
        _ = frame.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// `count` connections made first, then each asking for `token`'s events socket right after
    /// the other, as a client racing the per-account limit would: the status each was
    /// answered with (101 for an open socket), read once all have asked, with every socket
    /// still open.
    static func race(port: Int, token: String, count: Int) async throws -> [Int] {
        let sockets = try (0..<count).map { _ in try SilentSocket(port: port) }
        return await OwnThread.run {
            sockets.forEach { $0.ask(token: token) }
            defer { sockets.forEach { Glibc.close($0.descriptor) } }
            return sockets.map { $0.status(within: 10) }
        }
    }

    /// Writes `request` (raw HTTP/1.1) to `127.0.0.1:port`; the status of the answer, or 0 when
    /// none came within 10 s.
    static func exchange(port: Int, request: String) async throws -> Int {
        let socket = try SilentSocket(port: port)
        return await OwnThread.run {
            defer { Glibc.close(socket.descriptor) }
            _ = request.withCString { write(socket.descriptor, $0, strlen($0)) }
            return socket.status(within: 10)
        }
    }

    /// The status of the HTTP answer's first line, or 0 when none came within `limit` seconds.
    func status(within limit: Int) -> Int {
        var timeout = timeval(tv_sec: limit, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 12 else { return 0 }
        return Int(String(decoding: buffer[9..<12], as: UTF8.self)) ?? 0
    }

    /// The frames the server sends until it closes the connection (`true`) or `limit` passes,
    /// read on a thread of their own so that the blocking reads hold up no task.
    func framesUntilClosed(limit: TimeInterval) async -> (frames: [Frame], closed: Bool) {
        await OwnThread.run {
            let (bytes, closed) = readUntilClosed(limit: limit)
            return (Self.frames(in: bytes), closed)
        }
    }

    /// The bytes the server sends until it closes the connection (`true`) or `limit` passes;
    /// then closes it.
    private func readUntilClosed(limit: TimeInterval) -> (bytes: [UInt8], closed: Bool) {
        var timeout = timeval(tv_sec: Int(limit), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var closed = false
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count == 0 { closed = true }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        Glibc.close(descriptor)
        return (bytes, closed)
    }

    /// The frames after the HTTP response's head.
    private static func frames(in bytes: [UInt8]) -> [Frame] {
        let end = Array("\r\n\r\n".utf8)
        guard var index = (0...max(0, bytes.count - end.count)).first(where: { Array(bytes[$0..<min($0 + 4, bytes.count)]) == end })
        else { return [] }
        index += end.count
        var frames: [Frame] = []
        while index + 2 <= bytes.count {
            let opcode = bytes[index] & 0x0F
            // Lengths up to 125 in the header, up to 65,535 in the next two bytes (a code of
            // 126); events sockets send no longer frames (a code of 127).
            let code = Int(bytes[index + 1] & 0x7F)
            var length = code
            index += 2
            if code == 126, index + 2 <= bytes.count {
                length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
                index += 2
            }
            guard code < 127, index + length <= bytes.count else { break }
            frames.append(Frame(opcode: opcode, payload: Array(bytes[index..<index + length])))
            index += length
        }
        return frames
    }
}
