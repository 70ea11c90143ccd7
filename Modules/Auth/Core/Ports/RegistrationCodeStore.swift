import Foundation
import Kernel

/// Where a server keeps its invitation codes (`RegistrationCode`), by digest. Taking a use is
/// one atomic step, so that a code of 5 uses admits exactly 5 of any number of sign-ups at
/// once, on one instance or many. Memory, SQLite and PostgreSQL implement it.
public protocol RegistrationCodeStore: Sendable {
    /// Keeps `code`.
    func add(_ code: RegistrationCode) async throws
    /// Every code kept, newest first, expired and used-up ones too.
    func codes() async throws -> [RegistrationCode]
    /// Takes one use of the code of `digest` if it has one left and has not expired at `now`;
    /// whether it did.
    func take(_ digest: String, at now: Date) async throws -> Bool
    /// Gives back a use taken for a sign-up that then failed (the email was taken).
    func giveBack(_ digest: String) async throws
    /// Forgets the code `id`; whether there was one.
    func revoke(id: String) async throws -> Bool
}
