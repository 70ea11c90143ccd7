/// Text a fake terminal has printed, and a way to wait until some text appears, without polling.
@MainActor
final class OutputLog {
    private(set) var text = ""
    private var waiters: [(text: String, continuation: CheckedContinuation<Void, Never>)] = []

    /// Adds printed text; wakes whoever waits for something it completes.
    func append(_ printed: String) {
        text += printed
        let ready = waiters.filter { text.contains($0.text) }
        waiters.removeAll { text.contains($0.text) }
        ready.forEach { $0.continuation.resume() }
    }

    /// Forgets what was printed.
    func clear() { text = "" }

    /// Waits until `expected` has been printed.
    func waitFor(_ expected: String) async {
        if text.contains(expected) { return }
        await withCheckedContinuation { waiters.append((expected, $0)) }
    }
}
