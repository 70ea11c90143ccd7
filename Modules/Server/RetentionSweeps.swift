import Chat
import Foundation
import Kernel
import Logging
import ServiceGraph
import ServiceLifecycle

/// A server's `retention.days`: a pass at start and every `interval` deletes, for everyone, the
/// messages sent longer ago than that (`ErasedMessages.pastRetention`; tombstones stay, texts,
/// files and their index words go), until the server shuts down. Each deletion takes its turn
/// behind sends (ADR 29), so a pass never stalls them. A pass that fails is logged and tried
/// again at the next. Every instance on a shared PostgreSQL database runs its own: a message
/// two passes reach is deleted once.
struct RetentionSweeps: Service {
    /// How often a pass runs.
    static let interval = Duration.seconds(3_600)

    let graph: ServiceGraph
    let days: Int
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            repeat {
                do {
                    let erased = try await pass()
                    if erased > 0 { logger.notice("deleted \(erased) messages older than \(days) days (retention.days)") }
                } catch {
                    logger.warning("the retention pass failed: \(AppError(error).message)")
                }
            } while (try? await Task.sleep(for: Self.interval)) != nil
        }
    }

    /// One pass: the messages past retention now, deleted; how many.
    func pass() async throws -> Int {
        guard let which = ErasedMessages.pastRetention(days: days, at: graph.options.clock.now()) else { return 0 }
        return try await graph.erase(which)
    }
}
