import Synchronization

/// The methods served at each path template, so that a request with a method a path does not
/// serve is answered 405 with `Allow`, not 404.
public final class RouteTable: Sendable {
    private let routes = Mutex<[(method: String, segments: [Substring])]>([])

    /// An empty table.
    public init() {}

    /// Records that `method` is served at `template` (`/v1/conversations/{conversation}/read`).
    public func add(_ method: String, _ template: String) {
        routes.withLock { $0.append((method, template.split(separator: "/"))) }
    }

    /// The methods served at the concrete `path`, sorted; empty when no template matches.
    public func methods(at path: String) -> [String] {
        let segments = path.split(separator: "/")
        return routes.withLock { routes in
            Set(
                routes.filter { route in
                    route.segments.count == segments.count
                        && zip(route.segments, segments).allSatisfy { template, actual in template.hasPrefix("{") || template == actual }
                }.map(\.method)
            ).sorted()
        }
    }
}
