import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
public class Gcm {
  public static void main(String[] a) throws Exception {
    byte[] key = new byte[16]; byte[] buf = new byte[16384]; byte[] out = new byte[16384 + 16];
    SecretKeySpec k = new SecretKeySpec(key, "AES");
    for (int round = 0; round < 3; round++) {
      long t0 = System.nanoTime(); long bytes = 0;
      for (int i = 0; i < 20000; i++) {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        byte[] iv = new byte[12]; iv[0] = (byte) i; iv[1] = (byte) (i >> 8); iv[2] = (byte) round;
        c.init(Cipher.ENCRYPT_MODE, k, new GCMParameterSpec(128, iv));
        c.doFinal(buf, 0, buf.length, out, 0); bytes += buf.length;
      }
      System.out.printf("%.0f MB/s%n", bytes / 1e6 / ((System.nanoTime() - t0) / 1e9));
    }
  }
}
