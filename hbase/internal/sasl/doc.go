// Package sasl authenticates HBase RPC connections with Kerberos through
// SASL GSSAPI (RFC 4752 over RFC 4121), using gokrb5 for the Kerberos
// exchanges and writing the GSS-API and SASL parts itself.
//
// After the preamble (auth byte 0x51) the client sends length-prefixed
// tokens: the AP-REQ (mutual authentication requested) framed as a GSS-API
// initial context token, then an empty token, then the wrapped choice of
// security layer. The server answers each of the first two with a status
// int (0 success, 1 error followed by two strings: class and message) and
// a length-prefixed token: the AP-REP, which proves the server holds the
// key of its principal, then the wrapped layers it offers. The server
// sends nothing after the client's choice.
//
// With integrity or privacy every later byte in both directions, from the
// connection header on, travels in Wrap tokens (signed, or sealed with
// the context key), each preceded by its 4-byte length. The context key
// is the server's subkey from the AP-REP when it sent one, else the
// client's authenticator subkey.
//
// Errors are one line and say what to do: no or expired ticket ("run
// kinit or pass --keytab"), a keytab without the principal's current key,
// a principal the KDC does not know (naming the server principal tried),
// clock skew.
package sasl
