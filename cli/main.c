#include <stdio.h>

#include "contactsim/contactsim.h"

int main(void) {
  printf("contactsim %s\n", CS_VERSION_STRING);
  return 0;
}
