package sasl

import (
	"errors"
	"strings"
	"testing"
)

// TestErrorMessages checks that each failure is one line saying what to
// do. The inputs are the texts gokrb5 and HBase's server produce.
func TestErrorMessages(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{loginError(errors.New("[Root cause: KDC_Error] KDC_Error: AS Exchange Error: kerberos error response from KDC: KRB Error: (24) KDC_ERR_PREAUTH_FAILED Pre-authentication information was invalid"), "ann@R", "/k"),
			"the keytab /k does not hold the current key of ann@R"},
		{loginError(errors.New("[Root cause: KDC_Error] KDC_Error: AS Exchange Error: KRB Error: (6) KDC_ERR_C_PRINCIPAL_UNKNOWN Client not found in Kerberos database"), "bob@R", "/k"),
			"the KDC does not know the principal bob@R"},
		{loginError(errors.New("KRB Error: (37) KRB_AP_ERR_SKEW Clock skew too great"), "ann@R", "/k"),
			"clocks of this host and the KDC differ"},
		{loginError(errors.New("[Root cause: Networking_Error] Networking_Error: AS Exchange Error: failed sending AS_REQ to KDC: failed to communicate with KDC 127.0.0.1:1"), "ann@R", "/k"),
			"cannot reach the KDC for ann@R"},
		{ticketError(errors.New("[Root cause: KDC_Error] KDC_Error: TGS Exchange Error: kerberos error response from KDC when requesting for hbase/h: KRB Error: (7) KDC_ERR_S_PRINCIPAL_UNKNOWN Server not found in Kerberos database"), "hbase/h@R", "hbase/_HOST@R", "hbase.regionserver.kerberos.principal"),
			"the KDC does not know the server principal hbase/h@R (from hbase.regionserver.kerberos.principal=hbase/_HOST@R)"},
		{ticketError(errors.New("KRB Error: (37) KRB_AP_ERR_SKEW Clock skew too great"), "hbase/h@R", "hbase/_HOST@R", "x"),
			"synchronise the clock (NTP)"},
		{serverError("javax.security.sasl.SaslException", "GSS initiate failed [Caused by GSSException: Failure unspecified at GSS-API level (Mechanism level: Clock skew too great (37))]\nmore", "hbase/h@R"),
			"rejected the ticket for clock skew: synchronise this host's clock (NTP)"},
		{serverError("javax.security.sasl.SaslException", "GSS initiate failed [Caused by GSSException: Failure unspecified at GSS-API level (Mechanism level: Checksum failed)]", "hbase/h@R"),
			"the server cannot decrypt the ticket for hbase/h@R"},
	} {
		msg := tc.err.Error()
		if !strings.Contains(msg, tc.want) {
			t.Errorf("%q lacks %q", msg, tc.want)
		}
		if strings.Contains(msg, "\n") {
			t.Errorf("%q is not one line", msg)
		}
	}
}

func TestChooseProtection(t *testing.T) {
	h := &handshake{login: NewLogin(Config{Protection: []QOP{Privacy, Integrity}})}
	if q, err := h.choose(Authentication | Integrity | Privacy); err != nil || q != Privacy {
		t.Errorf("all offered: %v %v, want privacy", q, err)
	}
	if q, err := h.choose(Integrity); err != nil || q != Integrity {
		t.Errorf("integrity offered: %v %v", q, err)
	}
	h = &handshake{login: NewLogin(Config{})}
	_, err := h.choose(Privacy)
	if err == nil || !strings.Contains(err.Error(), "the server accepts hbase.rpc.protection=privacy only") {
		t.Errorf("error %v", err)
	}
}
