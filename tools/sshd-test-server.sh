#!/usr/bin/env bash
# Start (or reuse) a private OpenSSH server for ferro's provisioner tests and print shell exports
# describing it.
#
#   tools/sshd-test-server.sh          start the server unless it runs already; print
#                                      FERRO_SSHD_PORT, FERRO_SSHD_USER, FERRO_SSHD_KEY (a private
#                                      key it accepts), FERRO_SSHD_WRONG_KEY (one it refuses),
#                                      FERRO_SSHD_HOST_KEY (its public host key),
#                                      FERRO_SSHD_CERT_KEY and FERRO_SSHD_CERT (a key the server
#                                      takes only with its user certificate, signed by a
#                                      throwaway CA it trusts), and as root
#                                      FERRO_SSHD_PASSWORD_USER and FERRO_SSHD_PASSWORD (a user
#                                      who logs in with a password) as exports
#   tools/sshd-test-server.sh stop     stop it
#
# With FERRO_SSHD_HOST_CERT=1 the server also presents a host certificate (its host key signed
# by a throwaway host CA, valid for 127.0.0.1 and localhost) to clients that ask for one, and
# FERRO_SSHD_HOST_CA (the CA's public key) is printed too. Use a FERRO_SSHD_DIR of its own.
#
# Everything lives in $FERRO_SSHD_DIR (default ${TMPDIR:-/tmp}/ferro-sshd-test): a throwaway host
# key and user keys made with ssh-keygen on first use, the sshd_config, the log. The server
# listens on 127.0.0.1 only, on a free port, and accepts only the user key (or the certificate)
# for the user running this script (root in CI: PermitRootLogin is on for it). A server started
# by an older version of this script (another sshd_config) is restarted. As root it also makes a system user,
# ferro-ssh-pw, with a throwaway password, the only login the server takes a password for.
# When sshd is missing and this runs as root, the Debian package openssh-server is installed
# first.
#
# Usage in a shell: eval "$(tools/sshd-test-server.sh)"
set -euo pipefail

dir=${FERRO_SSHD_DIR:-${TMPDIR:-/tmp}/ferro-sshd-test}
mkdir -p "$dir"
chmod 700 "$dir"
exec 9>"$dir.lock"
flock 9

sshd=/usr/sbin/sshd
if [[ ! -x $sshd ]] || ! command -v ssh-keygen >/dev/null; then
  if [[ $(id -u) -ne 0 ]]; then
    echo "sshd-test-server: no sshd found; install the Debian package openssh-server" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq openssh-server >/dev/null 2>&1 || {
    echo "sshd-test-server: apt-get install openssh-server failed" >&2
    exit 1
  }
fi

user=$(id -un)
exports() {
  printf 'export FERRO_SSHD_PORT=%s\n' "$(cat "$dir/port")"
  printf 'export FERRO_SSHD_USER=%s\n' "$user"
  printf 'export FERRO_SSHD_KEY=%s\n' "$dir/user_key"
  printf 'export FERRO_SSHD_WRONG_KEY=%s\n' "$dir/wrong_key"
  printf 'export FERRO_SSHD_HOST_KEY=%s\n' "$dir/host_key.pub"
  printf 'export FERRO_SSHD_CERT_KEY=%s\n' "$dir/cert_key"
  printf 'export FERRO_SSHD_CERT=%s\n' "$dir/cert_key-cert.pub"
  if [[ -n $host_cert ]]; then
    printf 'export FERRO_SSHD_HOST_CA=%s\n' "$dir/host_ca.pub"
  fi
  if [[ -f $dir/password ]]; then
    printf 'export FERRO_SSHD_PASSWORD_USER=%s\n' "$pw_user"
    printf 'export FERRO_SSHD_PASSWORD=%s\n' "$(cat "$dir/password")"
  fi
}
pw_user=ferro-ssh-pw
host_cert=${FERRO_SSHD_HOST_CERT:+1}

running() {
  [[ -f $dir/sshd.pid ]] && kill -0 "$(cat "$dir/sshd.pid")" 2>/dev/null
}

if [[ ${1:-start} == stop ]]; then
  if running; then
    kill "$(cat "$dir/sshd.pid")" 2>/dev/null || true
  fi
  rm -f "$dir/sshd.pid" "$dir/port"
  exit 0
fi

# The version of the server's configuration; a running server of another version is replaced.
version=3${host_cert:+-host-cert}
if [[ -f $dir/port ]] && running; then
  if [[ $(cat "$dir/version" 2>/dev/null) == "$version" ]]; then
    exports
    exit 0
  fi
  kill "$(cat "$dir/sshd.pid")" 2>/dev/null || true
  for _ in $(seq 1 50); do running || break; sleep 0.1; done
  rm -f "$dir/sshd.pid" "$dir/port"
fi

for k in host_key user_key wrong_key cert_key user_ca host_ca; do
  if [[ ! -f $dir/$k ]]; then
    ssh-keygen -q -t ed25519 -N '' -C "ferro-test-$k" -f "$dir/$k" >/dev/null
  fi
done
# The certificate key is not authorized by itself: only with its certificate.
if [[ ! -f $dir/cert_key-cert.pub ]] || ! ssh-keygen -L -f "$dir/cert_key-cert.pub" | grep -x "                $user" >/dev/null; then
  ssh-keygen -q -s "$dir/user_ca" -I ferro-test-cert -n "$user" -V -5m:+3650d "$dir/cert_key.pub"
fi
host_cert_line=
if [[ -n $host_cert ]]; then
  if [[ ! -f $dir/host_key-cert.pub ]]; then
    ssh-keygen -q -s "$dir/host_ca" -h -I ferro-test-host -n 127.0.0.1,localhost -V -5m:+3650d "$dir/host_key.pub"
  fi
  host_cert_line="HostCertificate $dir/host_key-cert.pub"
fi
cp "$dir/user_key.pub" "$dir/authorized_keys"
# Privilege separation needs this directory when sshd runs as root; so does checking a
# password, which is why only root gets the password user.
if [[ $(id -u) -eq 0 ]]; then
  mkdir -p /run/sshd
  chmod 755 /run/sshd
  if ! id "$pw_user" >/dev/null 2>&1; then
    useradd --system --no-create-home --home-dir "$dir/pw-home" --shell /bin/sh "$pw_user"
  fi
  mkdir -p "$dir/pw-home"
  chown "$pw_user" "$dir/pw-home"
  # The user is the machine's, so its password is too: every server directory shares one.
  pw_file=${TMPDIR:-/tmp}/ferro-ssh-pw.password
  if [[ ! -f $pw_file ]]; then
    if [[ -f $dir/password ]]; then
      cp "$dir/password" "$pw_file"
    else
      (umask 077 && head -c 12 /dev/urandom | base64 | tr -d '/+=' >"$pw_file")
    fi
  fi
  (umask 077 && cp "$pw_file" "$dir/password")
  echo "$pw_user:$(cat "$dir/password")" | chpasswd
fi

for _ in 1 2 3 4 5; do
  port=$((20000 + RANDOM % 30000))
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    continue
  fi
  cat >"$dir/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $dir/host_key
$host_cert_line
PidFile $dir/sshd.pid
AuthorizedKeysFile $dir/authorized_keys
TrustedUserCAKeys $dir/user_ca.pub
AllowAgentForwarding yes
UsePAM no
PermitRootLogin yes
StrictModes no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
AllowTcpForwarding yes
PermitTTY yes
X11Forwarding no
PrintMotd no
PrintLastLog no
MaxStartups 100:30:200
MaxSessions 100
LogLevel INFO
Subsystem sftp internal-sftp
Match User $pw_user
  PasswordAuthentication yes
EOF
  rm -f "$dir/sshd.pid"
  # -D keeps it in the foreground of a background job of its own; setsid detaches it from the
  # caller's terminal and process group, so the caller's exit does not end it.
  setsid "$sshd" -D -f "$dir/sshd_config" -E "$dir/sshd.log" </dev/null >/dev/null 2>&1 9>&- &
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && [[ -f $dir/sshd.pid ]]; then
      echo "$port" >"$dir/port"
      echo "$version" >"$dir/version"
      exports
      exit 0
    fi
    sleep 0.1
  done
  [[ -f $dir/sshd.pid ]] && kill "$(cat "$dir/sshd.pid")" 2>/dev/null || true
done
echo "sshd-test-server: the server did not start; see $dir/sshd.log" >&2
tail -n 20 "$dir/sshd.log" >&2 || true
exit 1
