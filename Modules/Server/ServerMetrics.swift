import Hummingbird
import Metrics
import Prometheus
import ServiceGraph

/// What an operator sees of an instance at `GET /metrics`, in Prometheus' text format: the
/// process reports through swift-metrics (open sockets, sends stored, commit batch sizes and
/// times, refusals by kind) into one registry, and the feed's lag is read at each scrape.
enum ServerMetrics {
    /// Where the metrics are served.
    static let path = "/metrics"

    /// The process's registry.
    static let registry = PrometheusCollectorRegistry()

    /// Makes swift-metrics report into `registry`; the first call does it, later ones nothing
    /// (a process's metrics backend is set once).
    static func bootstrap() { _ = bootstrapped }

    private static let bootstrapped: Void = {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.valueHistogramBuckets["messageai_commit_batch_size"] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]
        factory.durationHistogramBuckets["messageai_commit_seconds"] = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
        ]
        MetricsSystem.bootstrap(factory)
    }()

    /// Serves the metrics on `router`, reading `graph`'s feed lag at each request.
    static func serve(on router: Router<some RequestContext>, graph: ServiceGraph) {
        let lag = registry.makeGauge(
            name: "messageai_feed_lag_events",
            help: "Events in the store that this instance has not yet handed to its sockets")
        router.get(RouterPath(path)) { _, _ -> Response in
            if let behind = await graph.feedLag() { lag.set(Double(behind)) }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
    }
}
