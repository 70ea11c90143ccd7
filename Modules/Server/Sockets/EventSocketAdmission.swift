import Chat
import ChatServer
import Foundation
import Hummingbird
import HummingbirdCore
import Kernel
import Logging
import NIOCore
import ServerSupport
import ServiceGraph

/// Who may open an events socket, and opening it. A signed-in caller may, with a well-formed
/// `after` cursor if any, while the account has fewer than `EventSocketProtocol.socketsPerUser`
/// sockets open. The upgrade asks before switching protocols (`EventSocketChannel` answers a
/// refusal with the API's error); the router's `GET /v1/events` asks for a request that is not
/// an upgrade, so that it too hears why before it hears 426.
struct EventSocketAdmission: Sendable {
    /// A caller let in.
    struct Admitted: Sendable {
        let caller: Caller
        let owner: UserID
        /// What the owner may read: a bot's token, its conversations alone.
        let grant: Grant
        /// The cursor the client resumes after, if any.
        let after: EventCursor?
        /// The socket's place among the owner's: given back when its connection closes.
        let reservation: OpenSockets.Reservation
    }

    private let graph: ServiceGraph
    private let feed: any EventFeed
    /// The open sockets.
    let sockets: OpenSockets
    private let requests: AccountRequests
    private let socketRequests: SocketRequests
    private let frames = EventFrames()

    /// Admits to sockets over `graph`'s store, registered in `sockets`; their clients' requests,
    /// those the features registered in `socketRequests`, count among their accounts' `requests`.
    /// - Throws: `.usage` for a graph without a store of its own (remote).
    init(graph: ServiceGraph, sockets: OpenSockets, requests: AccountRequests, socketRequests: SocketRequests) throws {
        guard let feed = graph.eventFeed else { throw AppError(.usage, "the server needs a store of its own, not a remote backend") }
        self.graph = graph
        self.feed = feed
        self.sockets = sockets
        self.requests = requests
        self.socketRequests = socketRequests
    }

    /// Checks a request to `path?query` with `authorization` as its `Authorization` header, and
    /// holds the socket's place among the account's (the caller gives it back if no socket opens).
    /// - Throws: `.notSignedIn` without a valid session; `.invalidInput` for a bad `after`;
    ///   `RetryLater` when the account has all its sockets open.
    func admit(authorization: String?, uri: String) async throws -> Admitted {
        let caller = graph.caller(token: APIRoutes.bearerToken(inHeader: authorization))
        let (owner, grant) = try await caller.principal()
        let after = try URI(uri).queryParameters["after"].map { try EventCursor(parsing: String($0)) }
        guard let reservation = sockets.reserve(for: owner, limit: EventSocketProtocol.socketsPerUser) else {
            throw RetryLater(
                AppError(.rateLimited, "this account has \(EventSocketProtocol.socketsPerUser) live connections open already; close one"),
                seconds: 5)
        }
        return Admitted(caller: caller, owner: owner, grant: grant, after: after, reservation: reservation)
    }

    /// Runs the events socket of `admitted` on `channel`, just upgraded to WebSocket, until it
    /// closes; the server's own failures to store its client's sends go to `logger`.
    func open(_ admitted: Admitted, on channel: any Channel, logger: Logger) throws {
        let (graph, owner, grant) = (graph, admitted.owner, admitted.grant)
        let connection = EventConnection(
            caller: admitted.caller, owner: owner, grant: admitted.grant, channel: channel, sockets: sockets, frames: frames,
            peopleApart: { try await graph.peopleApart(from: owner, under: grant) }, logger: logger)
        try channel.pipeline.syncOperations.addHandler(
            EventSocketHandler(
                connection: connection, admission: self, logger: logger,
                eventLoop: channel.eventLoop))
        connection.start(feed: feed, typing: graph.typingHub, events: graph.services(for: admitted.caller).events, after: admitted.after)
    }

    /// What answers the requests `connection`'s client makes, made when it makes the first: most
    /// sockets only listen, and an idle socket should cost as little as it can.
    func requests(of connection: EventConnection, logger: Logger) -> SocketRequestReader {
        socketRequests.reader(
            for: SocketClient(caller: connection.caller, owner: connection.owner, requests: requests, logger: logger) { [weak connection] text in
                connection?.answer(text)
            })
    }
}
