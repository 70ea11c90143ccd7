import Files
import FilesAPI
import Foundation
import HTTPTypes
import Hummingbird
import Kernel
import NIOCore
import ServerSupport

/// Files' routes, answered by the caller's `FilesService`: uploads and downloads stream, a chunk
/// at a time, so the server holds no whole file whatever its size.
public struct FilesRoutes: Sendable {
    private let service: @Sendable (Caller) -> any FilesService

    /// Creates the routes; `service` builds the files service of a caller.
    public init(service: @escaping @Sendable (Caller) -> any FilesService) { self.service = service }

    /// Registers every Files endpoint.
    public func add(to routes: APIRoutes) {
        let service = service
        routes.add(streaming: FilesAPI.upload) { call, request in
            let name = try call.required(FilesAPI.Query.name)
            guard name.utf8.count <= FilesAPI.Query.maxNameBytes else {
                throw AppError(.invalidInput, "a file's name is at most \(FilesAPI.Query.maxNameBytes) bytes")
            }
            let upload = FileUpload(
                conversationID: call.path.conversation, messageID: call.path.message,
                position: try call.query(FilesAPI.Query.position, default: 0), name: name,
                mediaType: call.query(FilesAPI.Query.type), declaredSize: request.headers[.contentLength].flatMap { Int64($0) })
            let file = try await service(call.caller).upload(upload, bytes: request.body.map { Array($0.readableBytesView) })
            return try WireResponse.make(file, status: FilesAPI.upload.spec.successStatus)
        }
        routes.add(FilesAPI.file) { call in try await service(call.caller).file(call.path.file) }
        routes.add(streaming: FilesAPI.bytes) { call, request in
            let asked = Self.range(request.headers[.range])
            do {
                return Self.response(
                    try await service(call.caller).download(call.path.file, range: asked), partial: asked != nil, on: call.connection)
            } catch let error as AppError where error.kind == .invalidInput && asked != nil {
                let size = try await service(call.caller).file(call.path.file).size
                return Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(size)"])
            }
        }
        routes.add(FilesAPI.messageFiles) { call in
            FileList(try await service(call.caller).files(of: call.path.message, in: call.path.conversation))
        }
        routes.add(FilesAPI.conversationFiles) { call in
            let before: FileID? = try call.query(FilesAPI.Query.before).map { try Validation.identifier($0, field: "before") }
            let limit = try call.query(FilesAPI.Query.limit, default: 50)
            return FileList(try await service(call.caller).files(in: call.path.conversation, before: before, limit: limit))
        }
    }

    /// The one range of a `Range: bytes=…` header (`first-last`, `first-` or `-suffix`); `nil`
    /// without one, or for one this server does not take (several ranges, other units): the
    /// whole file is sent then, as HTTP allows.
    static func range(_ header: String?) -> ByteRange? {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let parts = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let (first, last) = (Int64(parts[0].trimmingCharacters(in: .whitespaces)), Int64(parts[1].trimmingCharacters(in: .whitespaces)))
        switch (first, last) {
        case (let first?, let last?) where first >= 0 && last >= first: return ByteRange(offset: first, count: last - first + 1)
        case (let first?, nil) where parts[1].isEmpty && first >= 0: return ByteRange(offset: first, count: .max - first)
        // A suffix: the last bytes, once the size is known (the offset counts back from the end).
        case (nil, let suffix?) where parts[0].isEmpty && suffix > 0: return ByteRange(offset: -suffix, count: suffix)
        default: return nil
        }
    }

    /// The response carrying `download`'s bytes as they come, paced by `connection`
    /// (`WireResponse.streaming`): 206 with its range for a `partial` one. The bytes are served as an attachment of no particular type, so that no browser
    /// renders what a sender named `text/html`.
    private static func response(_ download: FileDownload, partial: Bool, on connection: any EventLoop) -> Response {
        let (file, range) = (download.file, download.range)
        var headers: HTTPFields = [
            .contentType: ByteStream.mediaType, .contentLength: String(range.count), .acceptRanges: "bytes",
            .contentDisposition: "attachment; filename=\"file\"; filename*=UTF-8''" + percentEncoded(file.name),
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        ]
        if partial { headers[.contentRange] = "bytes \(range.offset)-\(range.offset + range.count - 1)/\(file.size)" }
        return Response(
            status: partial ? .partialContent : .ok, headers: headers,
            body: WireResponse.streaming(download.bytes, on: connection))
    }

    private static func percentEncoded(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: ".-_"))) ?? "file"
    }
}
