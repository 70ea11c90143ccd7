import Foundation
import GRDB
import Kernel

/// Turns SQLite failures into errors for people, and retries writes that met a busy database.
enum SQLErrors {
    static func openFailure(_ error: any Error, path: String) -> AppError {
        guard let error = error as? DatabaseError else { return FileChecks.failure(path, "cannot be opened: \(error)") }
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: return FileChecks.failure(path, "is corrupt (\(error.message ?? "malformed"))")
        case .SQLITE_READONLY: return FileChecks.failure(path, "is read-only")
        case .SQLITE_CANTOPEN: return FileChecks.failure(path, "cannot be opened (\(error.message ?? "unknown reason"))")
        case .SQLITE_BUSY: return FileChecks.failure(path, "stayed locked by another process")
        default: return FileChecks.failure(path, "cannot be opened: \(error.message ?? "\(error.resultCode)")")
        }
    }

    /// Runs `operation`, retrying with backoff while the database is busy (12 retries, about
    /// 8.6 s in all, on top of SQLite's own busy timeout). A database still busy after them, a
    /// full disk, a damaged file or row leave as an `AppError` for people; other errors pass unchanged.
    static func retryingBusy<T>(_ operation: () async throws -> T) async throws -> T {
        var delay = Duration.milliseconds(5)
        var retries = 0
        while true {
            do {
                return try await operation()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
                guard retries < 12 else { throw AppError(.unavailable, "the database stayed locked by another process; try again") }
                retries += 1
                try await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(2))
            } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
                throw AppError(.unavailable, "the disk is full; nothing was saved")
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB {
                throw AppError(.unavailable, "the database is damaged (\(error.message ?? "corrupt")); nothing was changed")
            } catch is RowDecodingError {
                throw AppError(.unavailable, "the database holds a damaged row (a missing or mistyped value); it cannot be read")
            }
        }
    }
}
