import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
public class Ciphers {
  public static void main(String[] a) throws Exception {
    String which = a[0];
    byte[] buf = new byte[16384]; byte[] out = new byte[16384 + 16];
    for (int round = 0; round < 4; round++) {
      long t0 = System.nanoTime(); long bytes = 0;
      for (int i = 0; i < 10000; i++) {
        byte[] iv = new byte[12]; iv[0] = (byte) i; iv[1] = (byte) (i >> 8); iv[2] = (byte) round;
        Cipher c;
        if (which.equals("gcm")) {
          c = Cipher.getInstance("AES/GCM/NoPadding");
          c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[16], "AES"), new GCMParameterSpec(128, iv));
        } else {
          c = Cipher.getInstance("ChaCha20-Poly1305");
          c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[32], "ChaCha20"), new IvParameterSpec(iv));
        }
        c.doFinal(buf, 0, buf.length, out, 0); bytes += buf.length;
      }
      System.out.printf("%s %.0f MB/s%n", which, bytes / 1e6 / ((System.nanoTime() - t0) / 1e9));
    }
  }
}
