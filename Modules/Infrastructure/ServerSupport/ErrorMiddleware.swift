import Hummingbird
import Kernel
import Logging
import NIOCore
import NIOHTTP1

/// Turns every failure into the API's error body (`WireError`) with its status: `AppError`s by
/// their kind, Hummingbird's own refusals (no such route, body too large) by their status, a
/// method a path does not serve as 405 with `Allow`, a body that is not valid HTTP (an unknown
/// transfer coding, a bad chunk size) as 400 logged only at debug level (a stranger's bytes
/// must not fill the log), and anything else (an `AppError` of kind `.internal` among them) into
/// a 500 that names the request's id, whose details go to the log under that id, not to the
/// client (`ErrorReply.failure`). A request refused as too many (429) is answered only after
/// `refusalPause`, so that a client that retries at once, ignoring `Retry-After`, makes a few
/// requests a second on a connection, not thousands: refusing costs the server little, but not
/// nothing, and a flood of refusals would take the cores other people's requests need.
public struct ErrorMiddleware: RouterMiddleware {
    public typealias Context = APIRequestContext

    /// How long a 429 waits before it is answered.
    public static let refusalPause: Duration = .milliseconds(200)

    private let routes: RouteTable

    /// Creates the middleware; `routes` tells a path with other methods from an unknown one.
    public init(routes: RouteTable) { self.routes = routes }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            if let reply = ErrorReply(error) {
                if reply.status == 429 { try? await Task.sleep(for: Self.refusalPause) }
                return try reply.response()
            }
            return try reply(to: error, request: request, context: context)
        }
    }

    /// The answer to a failure that is not an API refusal: Hummingbird's, or the server's own.
    private func reply(to error: any Error, request: Request, context: Context) throws -> Response {
        switch error {
        case let error as HTTPParserError:
            context.logger.debug("malformed request", metadata: ["path": "\(routes.logged(request.uri.path))", "error": "\(error)"])
            return try WireResponse.make(WireError(AppError(.invalidInput, "the request is not valid HTTP/1.1 (\(error))")), status: 400)
        case is NIOTooManyBytesError:
            return try WireResponse.make(WireError(AppError(.tooLarge, Self.message(for: 413, request: request) ?? "")), status: 413)
        case let error as HTTPError where error.status == .notFound && !routes.methods(at: request.uri.path).isEmpty:
            let allowed = routes.methods(at: request.uri.path)
            let refusal = AppError(
                .usage, "\(request.method) is not served at \(AppError.quoting(request.uri.path)); it takes \(allowed.joined(separator: ", "))")
            return try WireResponse.make(WireError(refusal), status: 405, headers: [.allow: allowed.joined(separator: ", ")])
        case let error as HTTPError:
            let status = Int(error.status.code)
            let kind = WireError.kind(for: status)
            let message = Self.message(for: status, request: request) ?? error.body ?? error.status.reasonPhrase
            return try WireResponse.make(WireError(AppError(kind, message)), status: status, headers: error.headers)
        default:
            return try ErrorReply.failure(
                error, id: context.id, logger: context.logger, "request failed",
                metadata: ["method": "\(request.method)", "path": "\(routes.logged(request.uri.path))"]
            ).response()
        }
    }

    private static func message(for status: Int, request: Request) -> String? {
        switch status {
        case 404: "no route \(request.method) \(AppError.quoting(request.uri.path))"
        case 413: "the request body is larger than \(APIRequestContext.maxBodyBytes) bytes"
        default: nil
        }
    }
}
