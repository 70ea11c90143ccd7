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
                return try await explained(operation)
            } catch let error where isBusy(error) {
                guard retries < 12 else { throw AppError(.unavailable, "the database stayed locked by another process; try again") }
                retries += 1
                try await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(2))
            }
        }
    }

    /// Runs `operation` once; a full disk, a damaged file or row leave as an `AppError` for
    /// people, other errors (a busy database among them) unchanged.
    static func explained<T>(_ operation: () throws -> T) throws -> T {
        do {
            return try operation()
        } catch {
            throw explanation(of: error)
        }
    }

    /// `explained`, for an asynchronous operation.
    static func explained<T>(_ operation: () async throws -> T) async throws -> T {
        do {
            return try await operation()
        } catch {
            throw explanation(of: error)
        }
    }

    /// Whether `error` is SQLite's "another connection holds the lock".
    static func isBusy(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
    }

    private static func explanation(of error: any Error) -> any Error {
        switch error {
        case let error as DatabaseError where error.resultCode == .SQLITE_FULL:
            AppError(.unavailable, "the disk is full; nothing was saved")
        case let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB:
            AppError(.unavailable, "the database is damaged (\(error.message ?? "corrupt")); nothing was changed")
        case is RowDecodingError:
            AppError(.unavailable, "the database holds a damaged row (a missing or mistyped value); it cannot be read")
        default:
            error
        }
    }
}
