#pragma once
// JSON Web Tokens signed with RS256 (RSASSA-PKCS1-v1_5 with SHA-256), as a Google service
// account key signs the assertion it trades for an access token. libcrypto does the signing;
// it is opened at first use (base/shared_library.hpp), as for hashing.
#include <string>
#include <string_view>

namespace zanj::remote {

/// base64url without padding (RFC 7515), as JWTs encode their parts.
std::string base64url(std::string_view bytes);

/// "HEADER.CLAIMS.SIGNATURE": the two JSON texts base64url-encoded and signed with the PEM
/// private key. Throws Error(Exit::usage) when the key cannot be read or signing fails; the
/// message never quotes the key.
std::string rs256_jwt(std::string_view header_json, std::string_view claims_json, const std::string& private_key_pem);

}  // namespace zanj::remote
