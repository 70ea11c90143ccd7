import Kernel
import Profile

extension Profile: WireType {
    public static let schema = WireSchema.object([
        ("id", .identifier), ("email", .nullable(.string(maxLength: Validation.maxEmailBytes))),
        ("displayName", .string(maxLength: Validation.maxDisplayNameLength)), ("status", .string(maxLength: Validation.maxStatusLength)),
    ], required: ["id", "displayName", "status"])
}
