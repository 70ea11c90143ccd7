import Foundation
import Synchronization

/// Ports for test servers below the kernel's ephemeral range (Linux gives ports from 32768 up to
/// outgoing connections and port-0 listeners), each handed out once per test process: a server
/// restarted after `kill -9` finds its port free, as nothing else was given it meanwhile. The
/// start depends on the process id, so that two test processes rarely share a range.
public enum TestPorts {
    static let range = 20_000..<32_000
    private static let next = Mutex(range.lowerBound + Int(getpid() % 400) * 30)

    /// A port nothing listens on now and no other caller in this process was given; 0 (any
    /// port) if the whole range is taken.
    public static func reserve() -> Int { reserve(consecutive: 1) }

    /// The first of `count` consecutive ports that nothing listens on now and no other caller
    /// in this process was given (a proxy's and its instances'); 0 if none are left.
    public static func reserve(consecutive count: Int) -> Int {
        for _ in range {
            let first = next.withLock { next in
                if next + count > range.upperBound { next = range.lowerBound }
                defer { next += count }
                return next
            }
            if (first..<first + count).allSatisfy(isFree) { return first }
        }
        return 0
    }

    /// Whether a listener could bind `port` on the loopback address now.
    static func isFree(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
