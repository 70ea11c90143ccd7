import Chat
import Files
import Foundation
import Kernel
import Logging
import ServiceGraph
import ServiceLifecycle

/// Work a server does at start and then every `interval`, until it shuts down: a pass that fails
/// is logged and tried again at the next. A service that returns stops the server's service
/// group, so a server runs one only when it has work to do (`passes`).
struct PeriodicPass: Service {
    let interval: Duration
    /// What the log says when a pass fails.
    let failure: String
    let logger: Logger
    /// One pass, which logs what it did.
    let pass: @Sendable () async throws -> Void

    func run() async throws {
        await cancelWhenGracefulShutdown {
            repeat {
                do {
                    try await pass()
                } catch {
                    logger.warning("\(failure): \(AppError(error).message)")
                }
            } while (try? await Task.sleep(for: interval)) != nil
        }
    }

    /// How often a retention pass runs.
    static let retentionInterval = Duration.seconds(3_600)

    /// The passes of a server with `settings` over `graph`:
    /// - the clean-up of shared files (`FileCleanup`), every `FileCleanup.interval`;
    /// - with `retention.days`, the deletion for everyone of messages sent longer ago than that
    ///   (`ErasedMessages.pastRetention`; tombstones stay, texts, files and their index words go),
    ///   every hour. Each deletion waits for the sends of the moment (`MessageErasure`), so a pass
    ///   never stalls them; every instance on a shared PostgreSQL database runs its own, and a
    ///   message two passes reach is deleted once.
    static func passes(_ settings: ServerSettings, graph: ServiceGraph, logger: Logger) -> [PeriodicPass] {
        var passes: [PeriodicPass] = []
        if let cleanup = graph.fileCleanup {
            passes.append(
                PeriodicPass(interval: FileCleanup.interval, failure: "the clean-up of files failed", logger: logger) {
                    let removed = try await cleanup.pass()
                    if removed > 0 { logger.info("removed \(removed) files no message carries") }
                })
        }
        let days = settings.retentionDays
        if days > 0 {
            passes.append(
                PeriodicPass(interval: retentionInterval, failure: "the retention pass failed", logger: logger) {
                    guard let which = ErasedMessages.pastRetention(days: days, at: graph.options.clock.now()) else { return }
                    let erased = try await graph.erase(which)
                    if erased > 0 { logger.notice("deleted \(erased) messages older than \(days) days (retention.days)") }
                })
        }
        return passes
    }
}
