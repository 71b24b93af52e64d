import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The cluster's certificates and keys (Debian's openssl), all on loopback. */
export interface Pki {
  dir: string;
  caCert: string;
  caKey: string;
  serverCert: string;
  serverKey: string;
  /** CN=kubernetes-admin, O=system:masters: the control-plane components, kubectl and the harness. */
  adminCert: string;
  adminKey: string;
  /** Service-account token signing pair. */
  saKey: string;
  saPub: string;
}

function openssl(args: string[], cwd: string): void {
  const result = spawnSync("openssl", args, { cwd, encoding: "utf8" });
  if (result.error)
    throw new Error(`openssl is needed to make the cluster's certificates (apt-get install openssl): ${result.error.message}`);
  if (result.status !== 0) throw new Error(`openssl ${args[0]} failed: ${result.stderr}`);
}

const EC = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

function signed(dir: string, name: string, subject: string, extensions: string): void {
  openssl(["req", ...EC, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", subject], dir);
  writeFileSync(path.join(dir, `${name}.ext`), extensions);
  openssl(
    [
      "x509",
      "-req",
      "-in",
      `${name}.csr`,
      "-CA",
      "ca.crt",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-days",
      "30",
      "-out",
      `${name}.crt`,
      "-extfile",
      `${name}.ext`,
    ],
    dir,
  );
}

export function generatePki(dir: string): Pki {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  openssl(["req", "-x509", ...EC, "-keyout", "ca.key", "-out", "ca.crt", "-days", "30", "-subj", "/CN=rollscope-realcluster-ca"], dir);
  // 10.0.0.1: the `kubernetes` Service's ClusterIP in --service-cluster-ip-range.
  signed(
    dir,
    "apiserver",
    "/CN=kube-apiserver",
    "subjectAltName=IP:127.0.0.1,IP:10.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default.svc\nextendedKeyUsage=serverAuth\n",
  );
  signed(dir, "admin", "/O=system:masters/CN=kubernetes-admin", "extendedKeyUsage=clientAuth\n");
  openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "sa.key"], dir);
  openssl(["ec", "-in", "sa.key", "-pubout", "-out", "sa.pub"], dir);
  const f = (name: string) => path.join(dir, name);
  return {
    dir,
    caCert: f("ca.crt"),
    caKey: f("ca.key"),
    serverCert: f("apiserver.crt"),
    serverKey: f("apiserver.key"),
    adminCert: f("admin.crt"),
    adminKey: f("admin.key"),
    saKey: f("sa.key"),
    saPub: f("sa.pub"),
  };
}
