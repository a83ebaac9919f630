/* A program with no Gemmini instruction: the model is never started. */
int main(void) { return 0; }
