/* A syntax error on line 4. */
int main(void) {
  int x = 1;
  return x + ;
}
