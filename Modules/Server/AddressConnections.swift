import Kernel
import NIOCore
import ServerSupport
import Synchronization

/// The connections open from each client address (`ClientAddress.limitKey`), at most `limit`
/// each: without a cap one address could hold every descriptor the server has with idle or
/// half-sent connections and lock everyone else out. A direct connection counts from its
/// acceptance; one through a trusted proxy counts by the address the proxy names once it asks
/// for an events socket (its plain requests are short, and the proxy limits those).
final class AddressConnections: Sendable {
    /// Most connections one address may hold at once.
    let limit: Int
    private let open = Mutex<[String: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts `channel` against `address` until it closes; `false`, counting nothing, when the
    /// address holds `limit` connections already.
    func hold(_ address: String, for channel: any Channel) -> Bool {
        let key = ClientAddress.limitKey(address)
        let held = open.withLock { open in
            guard open[key, default: 0] < limit else { return false }
            open[key, default: 0] += 1
            return true
        }
        if held { channel.closeFuture.whenComplete { _ in self.release(key) } }
        return held
    }

    private func release(_ key: String) {
        open.withLock { open in
            open[key, default: 1] -= 1
            if open[key] == 0 { open[key] = nil }
        }
    }

    /// Closes its connection as soon as it is active: one over an address's limit, refused
    /// before a byte of it is read.
    final class Refusal: ChannelInboundHandler {
        typealias InboundIn = NIOAny

        init() {}

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { context.close(promise: nil) }
        }

        func channelActive(context: ChannelHandlerContext) {
            context.close(promise: nil)
        }
    }
}
