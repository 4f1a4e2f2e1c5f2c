# tests/regression/tls-lib.sh - certificates for the TLS tests, made by
# the openssl CLI in the test's own directory (sourced after lib.sh).
#
# tls_certs DIR makes, in DIR:
#   ca.pem, ca.key             the CA both ends trust
#   relay.pem, relay.key       the relay's, CN=ltt-relay, for 127.0.0.1 and localhost
#   client.pem, client.key     a consumer's, CN=ltt-client, signed by the CA
#   rogue-ca.pem, rogue.pem, rogue.key
#                              another CA, and a client certificate it signed
# Returns non-zero (with openssl's messages on stderr) if openssl fails.

need_openssl() {
	command -v openssl >/dev/null || skip_all "the openssl CLI is not installed (scripts/deps.sh)"
}

# _tls_leaf DIR NAME CN CA: NAME.key and NAME.pem, signed by CA(.pem/.key).
_tls_leaf() {
	local dir=$1 name=$2 cn=$3 ca=$4
	openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
		-keyout "$dir/$name.key" -subj "/CN=$cn" -out "$dir/$name.csr" 2>/dev/null &&
		printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n' \
			>"$dir/$name.ext" &&
		openssl x509 -req -in "$dir/$name.csr" -CA "$dir/$ca.pem" -CAkey "$dir/$ca.key" \
			-CAcreateserial -days 2 -extfile "$dir/$name.ext" -out "$dir/$name.pem" 2>/dev/null
}

# _tls_ca DIR NAME CN: a self-signed CA, NAME.pem and NAME.key.
_tls_ca() {
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
		-keyout "$1/$2.key" -subj "/CN=$3" -days 2 -out "$1/$2.pem" 2>/dev/null
}

tls_certs() {
	local dir=$1
	mkdir -p "$dir" &&
		_tls_ca "$dir" ca "ltt test CA" &&
		_tls_leaf "$dir" relay ltt-relay ca &&
		_tls_leaf "$dir" client ltt-client ca &&
		_tls_ca "$dir" rogue-ca "rogue CA" &&
		_tls_leaf "$dir" rogue ltt-rogue rogue-ca
}
