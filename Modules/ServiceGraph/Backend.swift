/// Which service implementations the graph builds.
public enum Backend: String, CaseIterable, Sendable {
    /// In-process services with seeded mock data.
    case memory
    /// An embedded SQLite database file.
    case sqlite
    /// The MessageAI server over HTTP and WebSocket.
    case remote
}
