import Synchronization

/// The methods served at each path template, so that a request with a method a path does not
/// serve is answered 405 with `Allow`, not 404.
public final class RouteTable: Sendable {
    /// A method served at a template, split in its segments.
    private typealias Served = (method: String, segments: [Substring])

    private let routes = Mutex<[Served]>([])

    /// An empty table.
    public init() {}

    /// Records that `method` is served at `template` (`/v1/conversations/{conversation}/read`).
    public func add(_ method: String, _ template: String) {
        routes.withLock { $0.append((method, template.split(separator: "/"))) }
    }

    /// The methods served at the concrete `path`, sorted; empty when no template matches.
    public func methods(at path: String) -> [String] {
        Set(matching(path).map(\.method)).sorted()
    }

    /// `path` as a log may hold it: a segment its template names `{secret}` (a hook's URL is its
    /// key) replaced with `…`.
    public func logged(_ path: String) -> String {
        guard let route = matching(path).first(where: { $0.segments.contains("{secret}") }) else { return path }
        return "/" + zip(route.segments, path.split(separator: "/")).map { $0 == "{secret}" ? "…" : String($1) }.joined(separator: "/")
    }

    /// The routes whose template matches the concrete `path`.
    private func matching(_ path: String) -> [Served] {
        let segments = path.split(separator: "/")
        return routes.withLock { routes in
            routes.filter { route in
                route.segments.count == segments.count
                    && zip(route.segments, segments).allSatisfy { template, actual in template.hasPrefix("{") || template == actual }
            }
        }
    }
}
