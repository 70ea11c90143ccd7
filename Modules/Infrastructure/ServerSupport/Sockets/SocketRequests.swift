import Foundation
import Kernel

/// What one socket does with the requests of one type: made for each socket that sends a
/// request, by the feature that owns the type.
public protocol SocketRequestReceiver: Sendable {
    /// The requests it takes.
    associatedtype Request: EventSocketProtocol.Request

    /// Takes one request, already decoded, on the connection's event loop and in the order the
    /// frames came: it must not wait there, and answers through its `SocketClient` once done.
    func received(_ request: Request)
}

/// The requests a client may make on its events socket, by type, each registered by the feature
/// that owns it (`APIRoutes.add(socket:)`), as it registers its endpoints: the server's socket
/// code carries frames and knows no feature's.
public struct SocketRequests: Sendable {
    /// What one socket does with a frame of one type: decodes the request from the frame's decoder,
    /// and gives what passes it on.
    typealias Take = @Sendable (any Decoder) throws -> @Sendable () -> Void

    private var kinds: [String: @Sendable (SocketClient) -> Take] = [:]

    /// None yet.
    public init() {}

    /// The types registered, sorted: what a refusal of an unknown frame lists.
    public var types: [String] { kinds.keys.sorted() }

    /// Registers requests of `Receiver.Request.type`, taken on each socket by the receiver `make`
    /// gives for its client. A type is one feature's: a second registration is a programming error.
    public mutating func add<Receiver: SocketRequestReceiver>(_ make: @escaping @Sendable (SocketClient) -> Receiver) {
        let type = Receiver.Request.type
        precondition(kinds[type] == nil, "two receivers of \(type) frames")
        kinds[type] = { client in
            let receiver = make(client)
            return { decoder in
                let request = try Receiver.Request(from: decoder)
                return { receiver.received(request) }
            }
        }
    }

    /// The reader of `client`'s frames, with a receiver of each type made for it.
    public func reader(for client: SocketClient) -> SocketRequestReader {
        SocketRequestReader(takes: kinds.mapValues { $0(client) }, client: client)
    }
}
