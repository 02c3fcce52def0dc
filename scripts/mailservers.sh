#!/usr/bin/env bash
# Real mail servers on the loopback interface for attu's end-to-end tests:
# Dovecot (IMAP with STARTTLS, LMTP, SASL for Postfix) and Postfix (an
# inbound SMTP listener and an authenticated submission listener), both
# configured from scratch in one directory, started without systemd and
# removed again by "stop". Nothing listens beyond 127.0.0.1, and Postfix
# delivers only to the test domain: it never relays anywhere.
#
#   scripts/mailservers.sh start [DIR]   install when missing, configure, start, wait
#   scripts/mailservers.sh env [DIR]     print the path of the environment file
#   scripts/mailservers.sh stop [DIR]    stop both servers and delete DIR
#   scripts/mailservers.sh smtp-stop [DIR]   close Postfix's submission listener
#   scripts/mailservers.sh smtp-start [DIR]  open it again
#
# smtp-stop and smtp-start stand for an outage of attu's own submission
# server: the inbound listener and Dovecot stay up, so the players' mail
# still arrives while attu cannot send.
#
# DIR is $ATTU_MAILSERVERS_DIR, else /tmp/attu-mailservers. "start" writes
# DIR/env, which the tests read when ATTU_MAILSERVERS names it:
#
#   ATTU_MAILSERVERS=$(scripts/mailservers.sh start) go test ./cmd/attu -run E2E
#   scripts/mailservers.sh stop
#
# Needs root (package installation, and Dovecot and Postfix start as root
# and drop their privileges) on Debian 12 (Dovecot 2.3, Postfix 3.7).
# Ports: $ATTU_MAILSERVERS_PORT (default 24100) and the next four.
set -euo pipefail

cmd=${1:-}
dir=${2:-${ATTU_MAILSERVERS_DIR:-${TMPDIR:-/tmp}/attu-mailservers}}
base=${ATTU_MAILSERVERS_PORT:-24100}
imap_port=$base
smtp_port=$((base + 1))
submission_port=$((base + 2))
lmtp_port=$((base + 3))
auth_port=$((base + 4))
domain=attu.test
users="attu alice bob carol"

log() { echo "mailservers: $*" >&2; }

install_packages() {
  local missing=()
  command -v dovecot >/dev/null || missing+=(dovecot-imapd)
  [ -x /usr/lib/dovecot/lmtp ] || missing+=(dovecot-lmtpd)
  command -v postfix >/dev/null || missing+=(postfix)
  command -v openssl >/dev/null || missing+=(openssl)
  [ ${#missing[@]} -eq 0 ] && return
  log "installing ${missing[*]}"
  # The Debian postfix package asks questions unless told not to; it
  # must not start its own system-wide instance either.
  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# port_free fails when something listens on 127.0.0.1:$1.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# wait_banner waits (at most 30 s) until 127.0.0.1:$1 greets with $2.
wait_banner() {
  local i line
  for i in $(seq 1 60); do
    if { exec 3<>"/dev/tcp/127.0.0.1/$1"; } 2>/dev/null; then
      line=""
      read -r -t 2 line <&3 || true
      exec 3<&- 3>&-
      case $line in "$2"*) return 0 ;; esac
    fi
    sleep 0.5
  done
  log "nothing answers \"$2\" on 127.0.0.1:$1; see $dir/dovecot.log and $dir/postfix.log"
  return 1
}

write_config() {
  mkdir -p "$dir"/{tls,dovecot,dc,postfix/conf,postfix/spool,postfix/data,mail}
  # Dovecot's and Postfix's unprivileged processes must reach their
  # files; the mail itself belongs to nobody, the mail user here.
  chmod 755 "$dir" "$dir/mail"
  chmod 700 "$dir/tls"

  # A throwaway certificate for localhost and 127.0.0.1, its own root:
  # the tests trust exactly this file.
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 7 \
    -subj "/CN=localhost" -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
    -keyout "$dir/tls/key.pem" -out "$dir/tls/cert.pem" 2>/dev/null
  cp "$dir/tls/cert.pem" "$dir/ca.pem"
  chmod 644 "$dir/ca.pem"

  local uid gid u pw
  uid=$(id -u nobody)
  gid=$(getent group nogroup | cut -d: -f3)
  : >"$dir/dovecot/users"
  : >"$dir/postfix/conf/mailboxes"
  {
    echo "# attu's test mail servers; source this file or give its path in ATTU_MAILSERVERS."
    echo "ATTU_MS_DIR=$dir"
    echo "ATTU_MS_DOMAIN=$domain"
    echo "ATTU_MS_IMAP=127.0.0.1:$imap_port"
    echo "ATTU_MS_SMTP=127.0.0.1:$smtp_port"
    echo "ATTU_MS_SUBMISSION=127.0.0.1:$submission_port"
    echo "ATTU_MS_CA=$dir/ca.pem"
    echo "ATTU_MS_MAIL=$dir/mail"
    echo "ATTU_MS_USERS=\"$users\""
  } >"$dir/env.tmp"
  for u in $users; do
    pw=$(openssl rand -hex 12)
    # passwd-file: user:password:uid:gid:gecos:home
    echo "$u:{PLAIN}$pw:$uid:$gid::$dir/mail/$u" >>"$dir/dovecot/users"
    mkdir -p "$dir/mail/$u"
    chown "$uid:$gid" "$dir/mail/$u"
    echo "$u@$domain $u" >>"$dir/postfix/conf/mailboxes"
    echo "ATTU_MS_PASSWORD_$u=$pw" >>"$dir/env.tmp"
  done
  chmod 640 "$dir/dovecot/users"
  chgrp dovecot "$dir/dovecot/users"

  cat >"$dir/dovecot/dovecot.conf" <<EOF
# Dovecot 2.3, loopback only, for attu's tests.
instance_name = attu-test
base_dir = $dir/dc
state_dir = $dir/dovecot/state
protocols = imap lmtp
listen = 127.0.0.1
log_path = $dir/dovecot.log
default_internal_user = dovecot
default_login_user = dovenull
first_valid_uid = 1

ssl = yes
ssl_cert = <$dir/tls/cert.pem
ssl_key = <$dir/tls/key.pem
ssl_min_protocol = TLSv1.2
# Loopback counts as secure for Dovecot; the tests use STARTTLS anyway.
auth_mechanisms = plain login

mail_location = maildir:~/Maildir
mail_privileged_group =
namespace inbox {
  inbox = yes
  separator = /
}
recipient_delimiter = +
lmtp_save_to_detail_mailbox = no

passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%n $dir/dovecot/users
}
userdb {
  driver = passwd-file
  args = username_format=%n $dir/dovecot/users
}

service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $imap_port
  }
  inet_listener imaps {
    port = 0
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $lmtp_port
  }
}
# Postfix asks Dovecot to check submission passwords (SASL).
service auth {
  inet_listener {
    address = 127.0.0.1
    port = $auth_port
  }
}
protocol lmtp {
  postmaster_address = postmaster@$domain
}
EOF

  local pf=$dir/postfix
  cat >"$pf/conf/main.cf" <<EOF
# Postfix 3.7, loopback only, for attu's tests: mail for @$domain goes
# to Dovecot by LMTP, everything else is refused.
compatibility_level = 3.6
queue_directory = $pf/spool
data_directory = $pf/data
mail_owner = postfix
setgid_group = postdrop
maillog_file = $dir/postfix.log
maillog_file_prefixes = $dir
myhostname = mail.$domain
mydomain = $domain
myorigin = $domain
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
alias_maps =
alias_database =
local_recipient_maps =
biff = no
recipient_delimiter = +
virtual_mailbox_domains = $domain
virtual_mailbox_maps = texthash:$pf/conf/mailboxes
virtual_transport = lmtp:inet:127.0.0.1:$lmtp_port
default_transport = error:this test server delivers only to @$domain
relay_transport = error:this test server delivers only to @$domain
smtpd_relay_restrictions = permit_sasl_authenticated, reject_unauth_destination
message_size_limit = 52428800
smtpd_tls_cert_file = $dir/tls/cert.pem
smtpd_tls_key_file = $dir/tls/key.pem
smtpd_tls_security_level = may
smtp_tls_security_level = none
smtpd_sasl_type = dovecot
smtpd_sasl_path = inet:127.0.0.1:$auth_port
delay_warning_time = 0
EOF
  # Every service runs unchrooted: the queue directory is not a chroot
  # jail prepared with /etc files as Debian's own instance is.
  # The inbound listener stands for an MX taking mail from elsewhere:
  # like one, it adds no From, Date or Message-ID to a mail that lacks
  # them (loopback clients count as local, and would get them).
  cat >"$pf/conf/master.cf" <<EOF
127.0.0.1:$smtp_port inet n - n - - smtpd
  -o local_header_rewrite_clients=
127.0.0.1:$submission_port inet n - n - - smtpd
  -o syslog_name=postfix/submission
  -o smtpd_tls_security_level=encrypt
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_tls_auth_only=yes
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
  -o smtpd_relay_restrictions=permit_sasl_authenticated,reject
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
tlsmgr    unix  -       -       n       1000?   1       tlsmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
proxywrite unix -       -       n       -       1       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
lmtp      unix  -       -       n       -       -       lmtp
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
EOF
}

start() {
  if [ -e "$dir/env" ]; then
    log "$dir/env exists: already started? ($0 stop first)"
    exit 1
  fi
  for p in $imap_port $smtp_port $submission_port $lmtp_port $auth_port; do
    port_free "$p" || { log "127.0.0.1:$p is in use (set ATTU_MAILSERVERS_PORT)"; exit 1; }
  done
  install_packages
  mkdir -p "$dir"
  chmod 755 "$dir"
  # Postfix and Dovecot drop root: every directory above DIR must let
  # them through (mktemp -d makes a directory only root may enter).
  if ! runuser -u postfix -- test -x "$dir"; then
    log "$dir: the postfix user cannot reach it; choose a directory under a world-searchable one (chmod o+x its parents)"
    exit 1
  fi
  write_config
  local pf=$dir/postfix
  postfix -c "$pf/conf" set-permissions >/dev/null 2>&1 || true
  postfix -c "$pf/conf" check || { script -qc "postfix -c $pf/conf check" /dev/null >&2 || true; exit 1; }

  setsid dovecot -F -c "$dir/dovecot/dovecot.conf" >>"$dir/dovecot.log" 2>&1 </dev/null &
  echo $! >"$dir/dovecot.pid"
  setsid postfix -c "$pf/conf" start-fg >>"$dir/postfix.log" 2>&1 </dev/null &
  echo $! >"$dir/postfix.pid"

  wait_banner "$imap_port" "* OK" && wait_banner "$smtp_port" "220" &&
    wait_banner "$submission_port" "220" && wait_banner "$lmtp_port" "220" || {
    stop_servers
    exit 1
  }
  mv "$dir/env.tmp" "$dir/env"
  log "Dovecot IMAP 127.0.0.1:$imap_port (STARTTLS), Postfix SMTP 127.0.0.1:$smtp_port, submission 127.0.0.1:$submission_port"
  echo "$dir/env"
}

stop_servers() {
  if [ -f "$dir/postfix/conf/main.cf" ]; then
    postfix -c "$dir/postfix/conf" stop >/dev/null 2>&1 || true
  fi
  if [ -f "$dir/dovecot/dovecot.conf" ]; then
    doveadm -c "$dir/dovecot/dovecot.conf" stop >/dev/null 2>&1 || true
  fi
  local f pid i
  for f in "$dir/postfix.pid" "$dir/dovecot.pid"; do
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    for i in $(seq 1 20); do
      kill -0 "$pid" 2>/dev/null || break
      [ "$i" = 10 ] && kill "$pid" 2>/dev/null
      sleep 0.3
    done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
    rm -f "$f"
  done
  return 0
}

# submission_service is the master.cf name of the submission listener.
submission_service() {
  postconf -c "$dir/postfix/conf" -P | sed -n 's|^\(.*/inet\)/syslog_name = postfix/submission$|\1|p'
}

smtp_stop() {
  local pf=$dir/postfix/conf svc port i
  svc=$(submission_service)
  [ -n "$svc" ] || { log "no submission listener in $pf/master.cf (stopped already?)"; exit 1; }
  port=${svc##*:}
  port=${port%/*}
  cp "$pf/master.cf" "$pf/master.cf.up"
  postconf -c "$pf" -M# "$svc"
  postfix -c "$pf" reload >/dev/null 2>&1
  for i in $(seq 1 60); do
    port_free "$port" && return 0
    sleep 0.25
  done
  log "127.0.0.1:$port still answers after the reload"
  return 1
}

# smtp_start undoes smtp_stop; on a running listener it only waits for it.
smtp_start() {
  local pf=$dir/postfix/conf svc port
  if [ -f "$pf/master.cf.up" ]; then
    mv "$pf/master.cf.up" "$pf/master.cf"
    postfix -c "$pf" reload >/dev/null 2>&1
  fi
  svc=$(submission_service)
  port=${svc##*:}
  wait_banner "${port%/*}" "220"
}

case $cmd in
start) start ;;
smtp-stop) smtp_stop ;;
smtp-start) smtp_start ;;
env)
  [ -f "$dir/env" ] || { log "not started: no $dir/env"; exit 1; }
  echo "$dir/env"
  ;;
stop)
  stop_servers
  # Only a directory this script made is removed.
  if [ -f "$dir/dovecot/dovecot.conf" ] || [ -f "$dir/env.tmp" ] || [ -f "$dir/env" ]; then
    rm -rf "$dir"
  fi
  ;;
*)
  echo "usage: $0 start|env|stop|smtp-stop|smtp-start [DIR]" >&2
  exit 2
  ;;
esac
