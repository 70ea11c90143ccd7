import Foundation
import Kernel

/// What a running command gets: the console, the output mode, the container (for its view
/// models) and look-ups across features.
@MainActor
public struct CLIContext {
    /// The terminal.
    public let console: Console
    /// True with `--json`.
    public let json: Bool
    /// References across features (conversation by name, user by email).
    public let lookup: any FrontendLookup
    private let container: AnyObject

    /// Creates a context.
    public init(console: Console, json: Bool, lookup: any FrontendLookup, container: AnyObject) {
        self.console = console
        self.json = json
        self.lookup = lookup
        self.container = container
    }

    /// The container, seen through a feature's factory protocol.
    public func factory<Factory>(_ type: Factory.Type) throws -> Factory {
        guard let factory = container as? Factory else {
            throw AppError(.internal, "the container does not provide \(type)")
        }
        return factory
    }

    /// Prints `value` as one JSON line with `--json`, otherwise the text lines.
    public func emit(_ value: some Encodable, text: @autoclosure () -> [String]) throws {
        if json {
            console.print(try JSONLines.encode(value))
        } else {
            text().forEach(console.print)
        }
    }

    /// Prints each value as its own JSON line with `--json`, otherwise the text lines.
    public func emitEach(_ values: [some Encodable], text: @autoclosure () -> [String]) throws {
        if json {
            for value in values { console.print(try JSONLines.encode(value)) }
        } else {
            text().forEach(console.print)
        }
    }

    /// The value of a loaded state, or its error thrown.
    public func require<Value>(_ state: Loadable<Value>) throws -> Value {
        switch state {
        case .loaded(let value): return value
        case .failed(let error): throw error
        case .idle, .loading: throw AppError(.internal, "the operation did not finish")
        }
    }
}
