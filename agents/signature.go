package agents

// VerifiedBySignature: a Web Bot Auth signature (package botauth) verified
// against the key directory, stored with --keys, of the origin its
// Signature-Agent names.
const VerifiedBySignature = "signature"

// signers are the operators of the signature agents robowatch knows, by
// the host of the origin that serves their key directory
// (https://HOST/.well-known/http-message-signatures-directory).
var signers = map[string]string{
	"chatgpt.com": "OpenAI", // ChatGPT agent: https://help.openai.com/en/articles/11845367-chatgpt-agent-allowlisting
}

// SignerOperator returns who a signature verified for the origin at host
// proves sent it: the operator robowatch knows for host, else host
// itself, since whoever controls the host publishes its keys.
func SignerOperator(host string) string {
	if op, ok := signers[host]; ok {
		return op
	}
	return host
}

// IdentifySigned is Identify for a client a Web Bot Auth signature of the
// origin at host verified. A name that claims the signer's operator, or
// claims none (an unknown robot, or "" for a browser's User-agent, which
// claims no crawler), is verified as the signer's; ok is false when name
// claims another operator: the signature proves who signed, not the name.
func IdentifySigned(name, host string) (operator, identity, verifiedBy string, ok bool) {
	signer := SignerOperator(host)
	if claimed := Operator(name); claimed != "" && claimed != signer {
		return "", "", "", false
	}
	return signer, IdentityVerified, VerifiedBySignature, true
}
