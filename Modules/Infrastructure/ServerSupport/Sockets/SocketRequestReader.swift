import Foundation
import Kernel
import NIOCore

/// One socket's requests: each text frame is decoded once, its `type` and `id` first and then the
/// request its type names, from the same decoder, and handed to that type's receiver. A frame of
/// no registered type, or one whose fields do not decode, is refused with `invalidInput` when it
/// has an `id` and dropped when it has none.
public final class SocketRequestReader: Sendable {
    /// The decoding of one frame: the id to answer, and what to do or why not.
    private struct Incoming: Decodable {
        static let takes = CodingUserInfoKey(rawValue: "messageai.socketRequests")!

        /// The receivers' decoders, by type, handed to the frame's decoding.
        struct Takes: Sendable {
            let byType: [String: SocketRequests.Take]
        }

        private enum Field: String, CodingKey { case type, id }

        let id: String?
        let delivery: Result<@Sendable () -> Void, AppError>

        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: Field.self)
            id = try? fields.decode(String.self, forKey: .id)
            let takes = (decoder.userInfo[Self.takes] as? Takes)?.byType ?? [:]
            guard let type = try? fields.decode(String.self, forKey: .type), let take = takes[type] else {
                let types = takes.keys.sorted().joined(separator: ", ")
                delivery = .failure(AppError(.invalidInput, "the frame is not a request this server understands; its type is one of: \(types)"))
                return
            }
            do {
                delivery = .success(try take(decoder))
            } catch let DecodingError.keyNotFound(key, _) {
                delivery = .failure(AppError(.invalidInput, "a \(type) frame needs the field \(key.stringValue)"))
            } catch let error as DecodingError {
                delivery = .failure(AppError(.invalidInput, "a \(type) frame's \(Self.field(of: error)) is not of the type it needs"))
            } catch {
                delivery = .failure(AppError(error))
            }
        }

        /// The field a decoding error is about, by the path to it.
        private static func field(of error: DecodingError) -> String {
            let path: [any CodingKey] =
                switch error {
                case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): context.codingPath
                case .keyNotFound(_, let context): context.codingPath
                @unknown default: []
                }
            return path.isEmpty ? "content" : "field " + path.map(\.stringValue).joined(separator: ".")
        }
    }

    private let takes: Incoming.Takes
    private let client: SocketClient

    init(takes: [String: SocketRequests.Take], client: SocketClient) {
        self.takes = Incoming.Takes(byType: takes)
        self.client = client
    }

    /// Takes a text frame from the client, in the order frames arrive.
    public func received(_ bytes: ByteBuffer) {
        let decoder = WireFormat.decoder()
        decoder.userInfo[Incoming.takes] = takes
        guard let frame = try? decoder.decode(Incoming.self, from: Data(bytes.readableBytesView)) else { return }
        switch frame.delivery {
        case .success(let deliver): deliver()
        case .failure(let refusal): client.answer(frame.id, refusal: refusal)
        }
    }
}
